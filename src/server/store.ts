// The content-addressed store behind `flameview serve`.
//
// Layout under DIR:
//   <id>          the bytes exactly as uploaded; id = lowercase hex sha256 of those bytes
//   <id>.json     sidecar {name, size, date}
//   .incoming/    uploads in progress (removed at start-up: a crash leaves nothing served)
//
// Invariants:
// - A recording exists iff DIR/<id> exists; that file is only ever created by link(2) (or
//   rename(2)) of a complete, fsynced temporary file, so a reader never sees a partial recording.
// - Every path is built from an id that matched ID_PATTERN; nothing else from a request reaches
//   the file system.
// - An upload holds one chunk in memory at a time; its size is checked as bytes arrive.

import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { link, mkdir, open, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isValidId } from './security';

const INCOMING = '.incoming';

export interface RecordingInfo {
  id: string;
  name: string;
  size: number;
  /** ISO 8601, when the recording was first stored. */
  date: string;
}

export type PutResult =
  | { kind: 'stored'; info: RecordingInfo; created: boolean }
  | { kind: 'too-large'; limit: number }
  | { kind: 'rejected'; reason: string }
  /** The client went away before the end of the body. */
  | { kind: 'interrupted' }
  /** ENOSPC / EDQUOT while writing. */
  | { kind: 'no-space' };

export interface PutOptions {
  name: string;
  maxBytes: number;
  /** Looks at the complete temporary file; returns a reason to refuse it, or null to keep it. */
  accept?: (path: string) => Promise<string | null>;
}

export class UploadTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`upload exceeds ${limit} bytes`);
  }
}

export class UploadInterrupted extends Error {
  constructor() {
    super('the upload was interrupted');
  }
}

export class ProfileStore {
  private constructor(readonly dir: string) {}

  /** Opens (creating if needed) a store, removing what interrupted uploads left behind. */
  static async open(dir: string): Promise<ProfileStore> {
    await mkdir(dir, { recursive: true });
    await rm(join(dir, INCOMING), { recursive: true, force: true });
    await mkdir(join(dir, INCOMING));
    const store = new ProfileStore(dir);
    // Sidecars whose recording never got committed (a crash between the two renames).
    for (const entry of await readdir(dir)) {
      if (entry.endsWith('.json') && isValidId(entry.slice(0, -5))) {
        if (!(await exists(join(dir, entry.slice(0, -5))))) await rm(join(dir, entry), { force: true });
      } else if (entry.startsWith('.tmp-')) {
        await rm(join(dir, entry), { force: true });
      }
    }
    return store;
  }

  private dataPath(id: string): string {
    if (!isValidId(id)) throw new Error(`invalid recording id ${JSON.stringify(id)}`);
    return join(this.dir, id);
  }

  /** Streams `body` into the store. Never holds more than one chunk of it in memory. */
  async put(body: Readable, options: PutOptions): Promise<PutResult> {
    const temp = join(this.dir, INCOMING, `${process.pid}-${randomBytes(12).toString('hex')}`);
    const hash = createHash('sha256');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (size > options.maxBytes) return callback(new UploadTooLarge(options.maxBytes));
        hash.update(chunk);
        callback(null, chunk);
      },
    });
    try {
      const out = createWriteStream(temp, { flags: 'wx', mode: 0o644 });
      const done = pipeline(meter, out);
      feed(body, meter);
      try {
        await done;
      } catch (e) {
        if (e instanceof UploadTooLarge) {
          // Stop storing but do not destroy the request: the caller still answers 413 on it.
          body.unpipe(meter);
          body.resume();
          return { kind: 'too-large', limit: e.limit };
        }
        if (e instanceof UploadInterrupted) return { kind: 'interrupted' };
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ENOSPC' || code === 'EDQUOT') return { kind: 'no-space' };
        throw e;
      }
      await fsyncPath(temp);
      const refusal = options.accept ? await options.accept(temp) : null;
      if (refusal !== null) return { kind: 'rejected', reason: refusal };
      const id = hash.digest('hex');
      const final = this.dataPath(id);
      const fresh: RecordingInfo = { id, name: options.name, size, date: new Date().toISOString() };
      if (!(await commit(temp, final))) {
        return { kind: 'stored', info: (await this.info(id)) ?? fresh, created: false };
      }
      await this.writeSidecar(fresh);
      await fsyncPath(this.dir);
      return { kind: 'stored', info: fresh, created: true };
    } finally {
      await rm(temp, { force: true });
    }
  }

  private async writeSidecar(info: RecordingInfo): Promise<void> {
    const temp = join(this.dir, INCOMING, `${process.pid}-${randomBytes(12).toString('hex')}.json`);
    const handle = await open(temp, 'wx', 0o644);
    try {
      await handle.writeFile(JSON.stringify({ name: info.name, size: info.size, date: info.date }) + '\n');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, this.dataPath(info.id) + '.json');
  }

  /** The recording's metadata, or null when there is no such recording. */
  async info(id: string): Promise<RecordingInfo | null> {
    if (!isValidId(id)) return null;
    const path = this.dataPath(id);
    let size: number;
    let mtime: Date;
    try {
      const s = await stat(path);
      if (!s.isFile()) return null;
      size = s.size;
      mtime = s.mtime;
    } catch {
      return null;
    }
    let name = '';
    let date = mtime.toISOString();
    try {
      const meta = JSON.parse(await readFile(path + '.json', 'utf8')) as Partial<RecordingInfo>;
      if (typeof meta.name === 'string') name = meta.name;
      if (typeof meta.date === 'string' && !Number.isNaN(Date.parse(meta.date))) date = meta.date;
    } catch {
      // A missing or damaged sidecar only loses the name; the recording itself is intact.
    }
    return { id, name, size, date };
  }

  /** A stream of the recording's bytes, or null when there is no such recording. */
  async read(id: string): Promise<{ info: RecordingInfo; stream: ReadStream } | null> {
    const info = await this.info(id);
    if (!info) return null;
    return { info, stream: createReadStream(this.dataPath(id)) };
  }

  /** Every stored recording, newest first. */
  async list(): Promise<RecordingInfo[]> {
    const entries = await readdir(this.dir);
    const infos: RecordingInfo[] = [];
    for (const entry of entries) {
      if (!isValidId(entry)) continue;
      const info = await this.info(entry);
      if (info) infos.push(info);
    }
    infos.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : a.id < b.id ? -1 : 1));
    return infos;
  }
}

/**
 * Pipes the request body into the meter without tying their lifetimes together (pipeline() would
 * destroy the request, and with it the socket the 413 answer must go out on). A client that goes
 * away mid-body fails the meter, so the upload is abandoned and its temporary file removed.
 */
function feed(body: Readable, meter: Transform): void {
  const abandon = () => {
    if (!meter.destroyed) meter.destroy(new UploadInterrupted());
  };
  body.once('error', abandon);
  body.once('aborted', () => abandon());
  body.once('close', () => {
    if (!body.readableEnded) abandon();
  });
  body.pipe(meter);
}

/** Makes `temp` visible as `final`; false when `final` already existed (same bytes, same id). */
async function commit(temp: string, final: string): Promise<boolean> {
  try {
    // link(2) fails instead of replacing, so of two identical concurrent uploads exactly one wins.
    await link(temp, final);
    await unlink(temp);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'ENOSYS') throw e;
  }
  // File systems without hard links: rename, which is atomic but replaces (with identical bytes).
  if (await exists(final)) return false;
  await rename(temp, final);
  return true;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } catch (e) {
    // Some file systems refuse fsync on a directory; the rename is still atomic there.
    if ((e as NodeJS.ErrnoException).code !== 'EINVAL' && (e as NodeJS.ErrnoException).code !== 'EISDIR') throw e;
  } finally {
    await handle.close();
  }
}
