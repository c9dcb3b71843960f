import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { dispositionName, ProfileSession, type OpenProgress } from './profile-session';
import { checkProfileUrl } from './profile-url';
import { fromTransfer, toTransfer } from '../views/snapshot';

const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/${name}`, import.meta.url));
const blobOf = (bytes: Uint8Array | string) => new Blob([bytes as BlobPart]);

/** Total weight of the folded oracle: the sum of the trailing counts. */
function foldedTotal(text: string): number {
  let total = 0;
  for (const line of text.split('\n')) {
    const m = /\s(\d+)$/.exec(line);
    if (m) total += Number(m[1]);
  }
  return total;
}

describe('ProfileSession', () => {
  it('opens a perf script Blob into a snapshot with both views', async () => {
    const session = new ProfileSession();
    const r = await session.openBlob(blobOf(fixture('rust-toyc.perf-script.txt')), { name: 'rust-toyc.perf-script.txt' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.snapshot.meta.format).toBe('perf-script');
    expect(r.snapshot.functions).not.toBeNull();
    expect(r.snapshot.inline.totalWeight[0]).toBe(foldedTotal(fixture('rust-toyc.folded').toString()));
  });

  it('opens gzip the same as plain text', async () => {
    const session = new ProfileSession();
    const plain = fixture('sqlite.folded');
    const a = await session.openBlob(blobOf(plain), { name: 'sqlite.folded' });
    const b = await session.openBlob(blobOf(gzipSync(plain)), { name: 'sqlite.folded.gz' });
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    expect(b.snapshot.inline.nodeCount).toBe(a.snapshot.inline.nodeCount);
    expect(b.snapshot.inline.totalWeight[0]).toBe(foldedTotal(plain.toString()));
  });

  it('opens pasted text', async () => {
    const r = await new ProfileSession().openText('main;work 3\nmain;idle 1\n', { name: 'pasted text' });
    expect(r.ok && r.snapshot.inline.totalWeight[0]).toBe(4);
  });

  it('refuses an empty file instead of replacing the open recording with nothing', async () => {
    const r = await new ProfileSession().openBlob(blobOf(new Uint8Array(0)), { name: 'empty.txt' });
    expect(!r.ok && r.error).toEqual({ kind: 'import', message: 'empty.txt: the file is empty' });
  });

  it('survives the transfer round trip', async () => {
    const r = await new ProfileSession().openText('main;a_[i];b 2\nmain;c 1\n', { name: 'x' });
    if (!r.ok) throw new Error(r.error.message);
    const { wire, transfer } = toTransfer(r.snapshot);
    const copy = structuredClone(wire, { transfer });
    const back = fromTransfer(copy);
    expect(back.frames.strings).toContain('a');
    expect(back.inline.totalWeight[0]).toBe(3);
  });

  it('names a perf.data file and says what to run', async () => {
    const bytes = new Uint8Array(4096);
    bytes.set(new TextEncoder().encode('PERFILE2'));
    const r = await new ProfileSession().openBlob(blobOf(bytes), { name: 'perf.data' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.kind).toBe('perf-data');
    // An installed user has `flameview` on PATH; a checkout has bin/flameview: both are named.
    expect(r.error.message).toContain('Run `flameview perf.data` (`bin/flameview perf.data` in a flameview checkout)');
    expect(r.error.message).toContain('perf script -i perf.data > out.txt');
  });

  it('detects perf.data magic split across tiny chunks', async () => {
    async function* bytes() {
      for (const c of 'PERFILE2\u0000\u0000') yield new TextEncoder().encode(c);
    }
    const r = await new ProfileSession().openChunks(bytes(), null, { name: 'recording.bin' });
    expect(!r.ok && r.error.kind).toBe('perf-data');
  });

  it('reports binary garbage as an import error naming the format, line and what was found', async () => {
    const garbage = new Uint8Array(2048);
    for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 7919) % 256;
    const r = await new ProfileSession().openBlob(blobOf(garbage), { name: 'garbage.bin' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.kind).toBe('import');
    expect(r.error.message).toMatch(/^garbage\.bin: line \d+: expected .*perf script.* found binary data/);
    expect(r.error.message).not.toContain('\n');
  });

  it('throttles progress and reports the final count', async () => {
    let t = 0;
    const session = new ProfileSession({ now: () => (t += 10), progressIntervalMs: 100 });
    const events: OpenProgress[] = [];
    const text = fixture('rust-toyc.folded');
    async function* chunks() {
      for (let i = 0; i < text.length; i += 1000) yield text.subarray(i, i + 1000);
    }
    const r = await session.openChunks(chunks(), text.length, { name: 'f', onProgress: (p) => events.push(p) });
    expect(r.ok).toBe(true);
    const calls = Math.ceil(text.length / 1000);
    expect(events.length).toBeGreaterThan(1);
    expect(events.length).toBeLessThan(calls / 5);
    const last = events[events.length - 1];
    expect(last.bytesRead).toBe(text.length);
    expect(last.totalBytes).toBe(text.length);
    expect(last.samples).toBeGreaterThan(0);
  });

  it('lets the latest request win: the earlier one resolves cancelled', async () => {
    const session = new ProfileSession();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    async function* slow() {
      yield new TextEncoder().encode('a;b 1\n');
      await gate;
      yield new TextEncoder().encode('a;c 1\n');
    }
    const first = session.openChunks(slow(), null, { name: 'first' });
    const second = session.openText('x;y 5\n', { name: 'second' });
    release();
    const [a, b] = await Promise.all([first, second]);
    expect(!a.ok && a.error.kind).toBe('cancelled');
    expect(b.ok && b.snapshot.inline.totalWeight[0]).toBe(5);
  });

  it('cancel() aborts the open in flight', async () => {
    const session = new ProfileSession();
    async function* endless() {
      for (;;) {
        yield new TextEncoder().encode('a;b 1\n'.repeat(100));
        await new Promise((r) => setTimeout(r, 1));
      }
    }
    const p = session.openChunks(endless(), null, { name: 'endless' });
    setTimeout(() => session.cancel(), 20);
    const r = await p;
    expect(!r.ok && r.error.kind).toBe('cancelled');
  });

  it('a Cancel reaches a pasted text mid-parse (its chunks are always ready: task turns)', async () => {
    const session = new ProfileSession();
    const text = Array.from({ length: 400_000 }, (_, i) => `main;f${i % 97};g${i % 13} ${i + 1}`).join('\n');
    // A task queued before the parse starts, as a cancel message from the page would be.
    const task = new MessageChannel();
    task.port1.onmessage = () => {
      task.port1.close();
      session.cancel();
    };
    task.port2.postMessage(null);
    const r = await session.openText(text, { name: 'pasted' });
    expect(!r.ok && r.error.kind).toBe('cancelled');
  });

  it('fetches a URL as a stream with progress against Content-Length', async () => {
    const body = fixture('sqlite.folded');
    const fakeFetch = (async (url: string) => {
      expect(url).toBe('https://example.org/p/sqlite.folded');
      return new Response(body, { headers: { 'content-length': String(body.length) } });
    }) as unknown as typeof fetch;
    const events: OpenProgress[] = [];
    const session = new ProfileSession({ fetch: fakeFetch, progressIntervalMs: 0 });
    const r = await session.openUrl('https://example.org/p/sqlite.folded', { name: 'sqlite.folded', onProgress: (p) => events.push(p) });
    expect(r.ok).toBe(true);
    expect(events.at(-1)).toMatchObject({ bytesRead: body.length, totalBytes: body.length });
  });

  it('several URLs: one recording of their sum, named by their last path segments; a failed one names itself', async () => {
    const runs = ['a1', 'a2', 'b1'].map((r) => `groups/${r}.folded`);
    const fakeFetch = (async (url: string) => {
      const name = decodeURIComponent(new URL(url).pathname.split('/').pop()!);
      return runs.includes(name) ? new Response(fixture(name)) : new Response('gone', { status: 404, statusText: 'Not Found' });
    }) as unknown as typeof fetch;
    const session = new ProfileSession({ fetch: fakeFetch });
    const urls = runs.map((r) => `https://h/p/${encodeURIComponent(r)}`);
    const r = await session.openUrls(urls, { name: 'runs' });
    if (!r.ok) throw new Error(r.error.message);
    // The oracle: the folded texts' weights, added.
    expect(r.snapshot.inline.totalWeight[0]).toBe(runs.map((f) => foldedTotal(fixture(f).toString())).reduce((a, b) => a + b, 0));
    expect(r.snapshot.meta.recordings).toEqual(runs);
    const bad = await session.openUrls([urls[0], 'https://h/p/missing.folded'], { name: 'runs' });
    expect(!bad.ok && bad.error.message).toBe('Could not fetch https://h/p/missing.folded: HTTP 404 Not Found');
    const refused = await session.openUrls([urls[0], 'file:///etc/passwd'], { name: 'runs' });
    expect(!refused.ok && refused.error.kind).toBe('refused');
  });

  it('takes the name the server gives in Content-Disposition', async () => {
    const fakeFetch = (async () =>
      new Response('a;b 1\n', { headers: { 'content-disposition': `attachment; filename="x.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9.folded` } })) as unknown as typeof fetch;
    const r = await new ProfileSession({ fetch: fakeFetch }).openUrl('http://h/api/profiles/abc', { name: 'abc' });
    expect(r.ok && r.name).toBe('résumé.folded');
  });

  it('names the cause of a failed fetch (here the network) and suggests the CLI', async () => {
    const fakeFetch = (async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    const r = await new ProfileSession({ fetch: fakeFetch }).openUrl('https://other.example/p.txt', { name: 'p.txt' });
    expect(!r.ok && r.error.kind).toBe('network');
    expect(!r.ok && r.error.message).toMatch(/^Could not fetch https:\/\/other\.example\/p\.txt: https:\/\/other\.example could not be reached .*`flameview FILE`/);
  });

  it('a server that answers only no-cors requests is a CORS failure, named with the page origin', async () => {
    const fakeFetch = (async (_url: string, init?: RequestInit) => {
      if (init?.mode === 'no-cors') return new Response(null, { status: 200 });
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    const r = await new ProfileSession({ fetch: fakeFetch, base: 'http://127.0.0.1:4173/assets/w.js' }).openUrl('http://127.0.0.1:9/p.txt', { name: 'p.txt' });
    expect(!r.ok && r.error.message).toMatch(/^Could not fetch http:\/\/127\.0\.0\.1:9\/p\.txt: http:\/\/127\.0\.0\.1:9 answered but does not allow this page \(http:\/\/127\.0\.0\.1:4173\) to read it \(CORS/);
  });

  it('reports HTTP errors', async () => {
    const fakeFetch = (async () => new Response('nope', { status: 404, statusText: 'Not Found' })) as unknown as typeof fetch;
    const r = await new ProfileSession({ fetch: fakeFetch }).openUrl('http://h/x', { name: 'x' });
    expect(!r.ok && r.error.message).toBe('Could not fetch http://h/x: HTTP 404 Not Found');
  });

  it('refuses non-http URLs without fetching', async () => {
    let fetched = false;
    const fakeFetch = (async () => {
      fetched = true;
      return new Response('');
    }) as unknown as typeof fetch;
    const r = await new ProfileSession({ fetch: fakeFetch }).openUrl('javascript:alert(1)', { name: 'x' });
    expect(!r.ok && r.error.kind).toBe('refused');
    expect(fetched).toBe(false);
  });
});

describe('checkProfileUrl', () => {
  it('resolves relative URLs against the page', () => {
    expect(checkProfileUrl('demo/a.txt', 'http://localhost:4173/app/index.html')).toEqual({ ok: true, url: 'http://localhost:4173/app/demo/a.txt' });
  });
  it.each(['javascript:alert(1)', 'data:text/plain,a;b 1', 'file:///etc/passwd', ' JavaScript:alert(1)'])('refuses %s', (raw) => {
    const r = checkProfileUrl(raw, 'http://localhost/');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(/only http and https/);
  });
  it('rejects a malformed absolute URL', () => {
    expect(checkProfileUrl('http://[bad').ok).toBe(false);
  });
});

describe('dispositionName', () => {
  it('prefers filename*, falls back to filename, strips paths and control characters', () => {
    expect(dispositionName(`attachment; filename="a_b.txt"; filename*=UTF-8''a%20b.txt`)).toBe('a b.txt');
    expect(dispositionName('attachment; filename="perf \\"x\\".txt"')).toBe('perf "x".txt');
    expect(dispositionName('attachment; filename=plain.txt')).toBe('plain.txt');
    expect(dispositionName(`attachment; filename*=UTF-8''..%2F..%2Fetc%2Fpasswd`)).toBe('passwd');
    expect(dispositionName('attachment; filename="a\u0007b"')).toBe('ab');
    expect(dispositionName('attachment')).toBeNull();
    expect(dispositionName(null)).toBeNull();
  });
});
