// The two store backends for the server tests: a temporary directory, and a fresh prefix in a
// bucket of a real S3-compatible server. By default that is s3rver (from npm), started here as a
// child process on 127.0.0.1 with a bucket created through the SDK; FLAMEVIEW_TEST_S3_BUCKET
// points the suite at real S3 or MinIO instead (README, "Running the suite against S3").

import { CreateBucketCommand, DeleteObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { DiskStore } from './disk-store';
import { REPO_ROOT } from './dist';
import { S3Store, parseS3Url, s3Client } from './s3-store';
import { isValidId } from './security';
import type { RecordingStore } from './store';
import { tempDir } from './test-support';

export interface TestStore {
  /** The --store value. */
  location: string;
  open(): Promise<RecordingStore>;
  /** Ids stored under their final name or key. */
  committed(): Promise<string[]>;
  /** Temporary files or objects of uploads in progress. */
  incoming(): Promise<string[]>;
  /** Extra arguments and environment for `bin/flameview serve --store <location>`. */
  cliArgs: string[];
  env: Record<string, string>;
}

export interface Backend {
  name: 'disk' | 's3';
  /** A new, empty store. */
  create(): Promise<TestStore>;
  /** Removes every store created since the last call. */
  cleanup(): Promise<void>;
  stop(): Promise<void>;
}

export function diskBackend(): Backend {
  const dirs: string[] = [];
  return {
    name: 'disk',
    async create() {
      const dir = tempDir('flameview-store-');
      dirs.push(dir);
      return {
        location: dir,
        open: () => DiskStore.open(dir),
        committed: async () => readdirSync(dir).filter((f) => isValidId(f)),
        incoming: async () => readdirSync(join(dir, '.incoming')),
        cliArgs: [],
        env: {},
      };
    },
    async cleanup() {
      for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
    },
    async stop() {},
  };
}

export interface S3Server {
  endpoint: string;
  bucket: string;
  env: Record<string, string>;
  stop(): Promise<void>;
}

export interface S3rver extends S3Server {
  port: number;
  /** Where it keeps its buckets: a restart on the same directory and port finds them again. */
  dir: string;
  /** kill -9, keeping the directory (for a restart); resolves once the process is gone. */
  kill(): Promise<void>;
}

/**
 * s3rver on 127.0.0.1 (a free port unless given), with its own directory unless given, as a child
 * process; the bucket is created unless `restart` (then it is already in `dir`).
 */
export async function startS3rver(at: { dir?: string; port?: number; restart?: boolean } = {}): Promise<S3rver> {
  const dir = at.dir ?? tempDir('flameview-s3rver-');
  const bin = join(REPO_ROOT, 'node_modules', 's3rver', 'bin', 's3rver.js');
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [bin, '-d', dir, '-a', '127.0.0.1', '-p', String(at.port ?? 0), '-s'], { cwd: REPO_ROOT });
  let out = '';
  let err = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`s3rver did not start: ${err}`)), 30_000);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /listening on [\d.]+:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.once('exit', (code) => reject(new Error(`s3rver exited (${code}): ${err}`)));
  });
  const env = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };
  const endpoint = `http://127.0.0.1:${port}`;
  const bucket = 'flameview-test';
  // The SDK reads credentials and region from the environment, in this process (stores opened by
  // the tests) as in the servers it spawns.
  Object.assign(process.env, env);
  if (!at.restart) {
    const client = s3Client(endpoint);
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    client.destroy();
  }
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((r) => child.once('close', r));
    child.kill(signal);
    await gone;
  };
  return {
    endpoint,
    bucket,
    env,
    port,
    dir,
    kill: () => end('SIGKILL'),
    async stop() {
      await end('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Real S3 or MinIO: FLAMEVIEW_TEST_S3_BUCKET, FLAMEVIEW_TEST_S3_ENDPOINT (optional), AWS_* as usual. */
function externalS3(): S3Server | null {
  const bucket = process.env.FLAMEVIEW_TEST_S3_BUCKET;
  if (!bucket) return null;
  const endpoint = process.env.FLAMEVIEW_TEST_S3_ENDPOINT ?? '';
  return { endpoint, bucket, env: {}, stop: async () => undefined };
}

export async function s3Backend(): Promise<Backend> {
  const server = externalS3() ?? (await startS3rver());
  const client: S3Client = s3Client(server.endpoint || undefined);
  const prefixes: string[] = [];
  const keys = async (prefix: string): Promise<string[]> => {
    const out: string[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: server.bucket, Prefix: prefix, ContinuationToken }));
      for (const o of page.Contents ?? []) if (o.Key) out.push(o.Key.slice(prefix.length));
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return out;
  };
  return {
    name: 's3',
    async create() {
      const prefix = `test-${Date.now()}-${randomBytes(6).toString('hex')}/`;
      prefixes.push(prefix);
      const location = `s3://${server.bucket}/${prefix}`;
      return {
        location,
        open: () => S3Store.open(parseS3Url(location), server.endpoint || undefined),
        committed: async () => (await keys(`${prefix}recordings/`)).filter((k) => isValidId(k)),
        incoming: () => keys(`${prefix}incoming/`),
        cliArgs: server.endpoint ? ['--s3-endpoint', server.endpoint] : [],
        env: server.env,
      };
    },
    async cleanup() {
      for (const prefix of prefixes.splice(0)) {
        for (const key of await keys(prefix)) await client.send(new DeleteObjectCommand({ Bucket: server.bucket, Key: prefix + key }));
      }
    },
    async stop() {
      client.destroy();
      await server.stop();
    },
  };
}
