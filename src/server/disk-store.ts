// The directory backend of the store (see store.ts for what every backend guarantees).
//
// Layout under DIR:
//   <id>          the bytes exactly as uploaded; id = lowercase hex sha256 of those bytes
//   <id>.json     sidecar {name, size, date}
//   .incoming/    uploads in progress (removed at start-up: a crash leaves nothing served)
//   .secret       the key delete tokens are signed with (mode 0600)
//
// Invariants:
// - A recording exists iff DIR/<id> exists; that file is only ever created by link(2) (or
//   rename(2)) of a complete, fsynced temporary file, so a reader never sees a partial recording.
// - One server per DIR (start-up clears .incoming).

import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { link, mkdir, open, readdir, readFile, rename, rm, stat, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isValidId } from './security';
import { IdLocks, UploadMeter, isNoSpace, receive } from './store';
import type { ByteRange, PutOptions, PutResult, RecordingInfo, RecordingStore, StoredEntry } from './store';

const INCOMING = '.incoming';
const SECRET = '.secret';

export class DiskStore implements RecordingStore {
  private readonly locks = new IdLocks();

  private constructor(readonly location: string) {}

  /** Opens (creating if needed) a store, removing what interrupted uploads left behind. */
  static async open(dir: string): Promise<DiskStore> {
    await mkdir(dir, { recursive: true });
    await rm(join(dir, INCOMING), { recursive: true, force: true });
    await mkdir(join(dir, INCOMING));
    // Sidecars whose recording never got committed (a crash between the two renames).
    for (const entry of await readdir(dir)) {
      if (entry.endsWith('.json') && isValidId(entry.slice(0, -5))) {
        if (!(await exists(join(dir, entry.slice(0, -5))))) await rm(join(dir, entry), { force: true });
      } else if (entry.startsWith('.tmp-')) {
        await rm(join(dir, entry), { force: true });
      }
    }
    return new DiskStore(dir);
  }

  private dataPath(id: string): string {
    if (!isValidId(id)) throw new Error(`invalid recording id ${JSON.stringify(id)}`);
    return join(this.location, id);
  }

  private tempPath(suffix = ''): string {
    return join(this.location, INCOMING, `${process.pid}-${randomBytes(12).toString('hex')}${suffix}`);
  }

  async put(body: Readable, options: PutOptions): Promise<PutResult> {
    const temp = this.tempPath();
    const meter = new UploadMeter(options);
    const file = createWriteStream(temp, { flags: 'wx', mode: 0o644 });
    try {
      const failed = await receive(body, meter, pipeline(meter, file));
      if (failed) return failed;
      await fsyncPath(temp);
      const id = meter.id;
      const fresh: RecordingInfo = { id, name: options.name, size: meter.received, date: new Date().toISOString() };
      return await this.locks.run(id, async () => {
        if (!(await commit(temp, this.dataPath(id)))) {
          return { kind: 'stored', info: (await this.info(id)) ?? fresh, created: false } as const;
        }
        try {
          await this.writeSidecar(fresh);
        } catch (e) {
          // No room for the sidecar: take the recording back out rather than keep it half-made
          // (no name, and a 500 to the client that would retry it anyway).
          await unlink(this.dataPath(id)).catch(() => undefined);
          if (isNoSpace(e)) return { kind: 'no-space' } as const;
          throw e;
        }
        await fsyncPath(this.location);
        return { kind: 'stored', info: fresh, created: true } as const;
      });
    } finally {
      // A refused upload can end before the file's open(2) has: wait for the stream to close, or
      // the removal runs first and the open then makes the file it was to remove.
      if (!file.closed) await once(file, 'close').catch(() => undefined);
      await rm(temp, { force: true });
    }
  }

  private async writeSidecar(info: RecordingInfo): Promise<void> {
    const temp = this.tempPath('.json');
    const handle = await open(temp, 'wx', 0o644);
    try {
      try {
        await handle.writeFile(JSON.stringify({ name: info.name, size: info.size, date: info.date }) + '\n');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, this.dataPath(info.id) + '.json');
    } catch (e) {
      await rm(temp, { force: true });
      throw e;
    }
  }

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

  async open(id: string, range?: ByteRange): Promise<Readable | null> {
    if (!isValidId(id)) return null;
    const stream = createReadStream(this.dataPath(id), range ? { start: range.start, end: range.end } : {});
    // Deleted or evicted since info(): a missing file is "gone", not an error.
    return new Promise((resolve) => {
      stream.once('ready', () => resolve(stream));
      stream.once('error', () => resolve(null));
    });
  }

  async openFile(id: string): Promise<FileHandle | null> {
    if (!isValidId(id)) return null;
    try {
      return await open(this.dataPath(id), 'r');
    } catch {
      return null; // deleted or evicted since info()
    }
  }

  async entries(): Promise<StoredEntry[]> {
    const out: StoredEntry[] = [];
    for (const entry of await readdir(this.location)) {
      if (!isValidId(entry)) continue;
      const info = await this.info(entry);
      if (info) out.push({ id: info.id, size: info.size, date: info.date });
    }
    return out;
  }

  async delete(id: string): Promise<boolean> {
    if (!isValidId(id)) return false;
    return this.locks.run(id, async () => {
      try {
        await unlink(this.dataPath(id));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw e;
      }
      await rm(this.dataPath(id) + '.json', { force: true });
      return true;
    });
  }

  async secret(): Promise<Buffer> {
    const path = join(this.location, SECRET);
    try {
      const handle = await open(path, 'wx', 0o600);
      try {
        await handle.writeFile(randomBytes(32).toString('hex') + '\n');
        await handle.sync();
      } finally {
        await handle.close();
      }
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    return Buffer.from((await readFile(path, 'utf8')).trim(), 'utf8');
  }

  async close(): Promise<void> {}
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
