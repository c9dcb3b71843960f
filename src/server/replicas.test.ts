// Two real `bin/flameview serve` processes on one bucket prefix of a real S3-compatible server:
// what one stores the other serves at once, a delete token from one works on the other (the
// secret lives in the bucket), and neither keeps anything on local disk.

import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { storeBackends } from './test-backend-hooks';
import { fixtureDist, foldedRecording, killAll, runCli, tempDir, waitForLine } from './test-support';

const backends = storeBackends();

const dirs: string[] = [];
afterEach(async () => {
  await killAll();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

it('two replicas on one bucket: an upload to either is served by both at once', async () => {
  const ts = await backends.s3.create();
  const dist = fixtureDist();
  const secrets = tempDir('flameview-token-');
  const tmpA = tempDir('flameview-tmp-a-');
  const tmpB = tempDir('flameview-tmp-b-');
  dirs.push(dist, secrets, tmpA, tmpB);
  const token = 'replica-test-token-0123456789';
  writeFileSync(join(secrets, 'upload-token'), `${token}\n`);
  const start = async (tmp: string) => {
    const server = runCli(['serve', '--store', ts.location, ...ts.cliArgs, '--port', '0', '--list', '--upload-token', join(secrets, 'upload-token')], {
      env: { ...process.env, ...ts.env, FLAMEVIEW_DIST: dist, TMPDIR: tmp },
    });
    return (await waitForLine(server, /^http:\/\/127\.0\.0\.1:\d+\/$/)).replace(/\/$/, '');
  };
  // One after the other: the first replica makes the bucket's secret with a conditional PUT
  // (If-None-Match: *), which S3 honours and s3rver ignores, so two replicas starting at the same
  // instant on s3rver could each keep a secret of their own (a CI under load saw B refuse A's
  // delete token with 403).
  const a = await start(tmpA);
  const b = await start(tmpB);
  const auth = { authorization: `Bearer ${token}` };

  const bodies = [foldedRecording(1), foldedRecording(2), foldedRecording(3)];
  const stored: { id: string; deleteToken: string }[] = [];
  for (const [i, body] of bodies.entries()) {
    const res = await fetch(`${i % 2 ? b : a}/api/profiles`, { method: 'POST', body, headers: { ...auth, 'x-filename': `r${i}` } });
    expect(res.status).toBe(201);
    const answer = (await res.json()) as { id: string; deleteToken: string };
    stored.push(answer);
    // At once on the other replica: no cache, no local state.
    const other = i % 2 ? a : b;
    expect(await (await fetch(`${other}/api/profiles/${answer.id}`)).text()).toBe(body);
    expect((await fetch(`${other}/p/${answer.id}`)).status).toBe(200);
    // The same bytes to the other replica: already stored, no second copy, no delete token.
    const again = await fetch(`${other}/api/profiles`, { method: 'POST', body, headers: auth });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ id: answer.id, url: `/p/${answer.id}` });
  }
  for (const base of [a, b]) {
    const list = (await (await fetch(`${base}/api/profiles`, { headers: auth })).json()) as { id: string; name: string }[];
    expect(list.map((r) => r.name)).toEqual(['r2', 'r1', 'r0']);
  }

  // A delete token handed out by A deletes through B.
  const del = await fetch(`${b}/api/profiles/${stored[0].id}`, { method: 'DELETE', headers: { authorization: `Bearer ${stored[0].deleteToken}` } });
  expect(del.status).toBe(204);
  for (const base of [a, b]) expect((await fetch(`${base}/api/profiles/${stored[0].id}`)).status).toBe(404);
  expect((await ts.committed()).sort()).toEqual([stored[1].id, stored[2].id].sort());

  // Stateless: nothing on local disk (tsx, which runs the TypeScript CLI, keeps its compile
  // cache there), and nothing left under incoming/.
  const ours = (dir: string) => readdirSync(dir).filter((f) => !f.startsWith('tsx-'));
  expect(ours(tmpA)).toEqual([]);
  expect(ours(tmpB)).toEqual([]);
  expect(await ts.incoming()).toEqual([]);
});
