// Which local files `flameview FILE` may hand to its page beside a recording (source files for the
// Source panel; the assembly route reuses it for binaries): a guard, kept apart from the routes so
// every route that reads a path the recording names asks the same questions in the same order.
//
// A request is answered only when all of these hold, else it is refused with the reason the page
// shows (403 unless said otherwise):
//   1. it carries this run's secret (random per run, in the page's URL; compared in constant time);
//   2. the path is one the recording names, byte for byte (`names`), not any path the caller likes;
//   3. it has no NUL and no `..` segment (refused before any normalisation could hide one);
//   4. an absolute path lies under a root as written (checked on the text: a path outside every
//      root is refused without touching the file system, so the answer reveals nothing about it);
//      a relative path (perf prints base names unless `--full-source-path`) is looked up under
//      each root in order, then among the roots' files by path suffix (an index built once, bounded
//      in entries and depth, not entering hidden or linked directories; the shortest match wins);
//   5. its real path (symbolic links resolved) lies under a root's real path: a link out of a root
//      is refused even when its target exists;
//   6. it is a regular file no larger than `maxBytes` (413 above it); a permitted path that does
//      not exist is 404.
// Roots are resolved once when the guard is made; a root that does not exist is an error then.

import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, isAbsolute, join, normalize, resolve, sep } from 'node:path';

/** Source files are text; a few MiB bounds the page's memory and the listing's rows. */
export const MAX_SOURCE_BYTES = 4 * 1024 * 1024;

/** The suffix index visits at most this many entries, this deep: a root of `/` stays cheap. */
export const INDEX_LIMITS = { entries: 200_000, depth: 16 };

export type GuardVerdict =
  | { ok: true; /** The real path to read. */ path: string; size: number }
  | { ok: false; status: 403 | 404 | 413; reason: string };

interface Root {
  /** As given, resolved against the working directory (for the textual check and messages). */
  given: string;
  /** Symbolic links resolved (for the real-path check). */
  real: string;
}

export interface GuardOptions {
  /** Directories under which files may be served; at least one. */
  roots: readonly string[];
  /** The paths the recording names; only these are ever looked up. */
  names: ReadonlySet<string>;
  /** Defaults to 16 random bytes in hex. */
  secret?: string;
  maxBytes?: number;
  /** How refusals name the roots and the option that adds one (another route's, e.g. binaries). */
  words?: { roots: string; option: string };
}

const SOURCE_WORDS = { roots: 'source roots', option: '--source-root' };

export class FileGuard {
  readonly secret: string;

  /** Base name → files under the roots, built on the first relative path that is not found directly. */
  private index: Promise<Map<string, string[]>> | null = null;

  private constructor(
    private readonly roots: readonly Root[],
    private readonly names: ReadonlySet<string>,
    secret: string,
    private readonly maxBytes: number,
    private readonly words: { roots: string; option: string },
  ) {
    this.secret = secret;
  }

  /** Resolves the roots; throws an Error naming the first root that is not a readable directory. */
  static async create(options: GuardOptions): Promise<FileGuard> {
    if (options.roots.length === 0) throw new Error(`no ${(options.words ?? SOURCE_WORDS).roots.replace(/s$/, '')} given`);
    const roots: Root[] = [];
    for (const dir of options.roots) {
      const given = resolve(dir);
      let real: string;
      try {
        real = await realpath(given);
        if (!(await stat(real)).isDirectory()) throw new Error('not a directory');
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        throw new Error(`${(options.words ?? SOURCE_WORDS).roots.replace(/s$/, '')} ${dir}: ${code === 'ENOENT' ? 'no such directory' : code === 'EACCES' ? 'permission denied' : (e as Error).message}`);
      }
      roots.push({ given, real });
    }
    return new FileGuard(roots, options.names, options.secret ?? randomBytes(16).toString('hex'), options.maxBytes ?? MAX_SOURCE_BYTES, options.words ?? SOURCE_WORDS);
  }

  /** The roots as given, resolved (for messages and the terminal). */
  get rootPaths(): string[] {
    return this.roots.map((r) => r.given);
  }

  /** Whether `given` is this run's secret, compared in constant time. */
  secretMatches(given: unknown): boolean {
    if (typeof given !== 'string') return false;
    const a = Buffer.from(given);
    const b = Buffer.from(this.secret);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  /** Rules 1-6 above for a request carrying `secret` for the recorded path `requested`. */
  async check(secret: unknown, requested: unknown): Promise<GuardVerdict> {
    if (!this.secretMatches(secret)) return refuse(403, "this address lacks the run's secret: open the page from the link flameview printed");
    if (typeof requested !== 'string' || requested === '') return refuse(403, 'no path asked for');
    const shown = JSON.stringify(requested.slice(0, 300));
    if (!this.names.has(requested)) return refuse(403, `${shown} is not a file this recording names`);
    if (requested.includes('\0')) return refuse(403, `${shown} holds a NUL character`);
    if (requested.split(/[\\/]/).includes('..')) return refuse(403, `${shown} has a '..' segment`);
    const { roots, option } = this.words;
    const outside = `${shown} is outside the ${roots} (${this.rootPaths.join(', ')}); start flameview with ${option} DIR to allow its folder`;
    let candidates: string[];
    if (isAbsolute(requested)) {
      const path = normalize(requested);
      if (!this.roots.some((r) => within(path, r.given) || within(path, r.real))) return refuse(403, outside);
      candidates = [path];
    } else {
      candidates = this.roots.map((r) => join(r.given, requested));
      const direct = await this.firstFile(candidates);
      if (!direct) candidates.push(...(await this.bySuffix(requested)));
    }
    let linkedOut = false;
    for (const candidate of candidates) {
      let real: string;
      try {
        real = await realpath(candidate);
      } catch {
        continue;
      }
      if (!this.roots.some((r) => within(real, r.real))) {
        linkedOut = true;
        continue;
      }
      const s = await stat(real).catch(() => null);
      if (!s) continue;
      if (!s.isFile()) return refuse(403, `${shown} is not a regular file`);
      if (s.size > this.maxBytes) return refuse(413, `${shown} is ${s.size} bytes, over the ${this.maxBytes}-byte limit`);
      return { ok: true, path: real, size: s.size };
    }
    if (linkedOut) return refuse(403, `${shown} leads outside the ${roots} through a symbolic link`);
    return refuse(404, `${shown} was not found under the ${roots} (${this.rootPaths.join(', ')})`);
  }

  private async firstFile(paths: readonly string[]): Promise<boolean> {
    for (const p of paths) if (await stat(p).then((s) => s.isFile(), () => false)) return true;
    return false;
  }

  /** Files under the roots whose path ends with `/` + `relative`, shortest first. */
  private async bySuffix(relative: string): Promise<string[]> {
    this.index ??= buildIndex(this.roots.map((r) => r.given));
    const tail = sep + normalize(relative);
    const found = ((await this.index).get(basename(relative)) ?? []).filter((p) => p.endsWith(tail));
    return found.sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  }
}

/** Base name → paths of the files under `roots`, walked breadth-first within INDEX_LIMITS. */
async function buildIndex(roots: readonly string[]): Promise<Map<string, string[]>> {
  const index = new Map<string, string[]>();
  let visited = 0;
  const queue: [string, number][] = roots.map((r) => [r, 0]);
  for (let q = 0; q < queue.length && visited < INDEX_LIMITS.entries; q++) {
    const [dir, depth] = queue[q];
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (++visited > INDEX_LIMITS.entries) break;
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        if (!e.name.startsWith('.') && depth + 1 < INDEX_LIMITS.depth) queue.push([path, depth + 1]);
      } else if (e.isFile() || e.isSymbolicLink()) {
        // A link is kept: check() resolves it and refuses one that leads out of the roots.
        const list = index.get(e.name);
        if (list) list.push(path);
        else index.set(e.name, [path]);
      }
    }
  }
  return index;
}

function refuse(status: 403 | 404 | 413, reason: string): GuardVerdict {
  return { ok: false, status, reason };
}

/** `path` is `dir` or below it (both normalised, absolute). */
function within(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}
