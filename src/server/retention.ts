// What keeps a team server's store bounded: `--max-store BYTES` (the oldest recordings go first
// once the total is over it) and `--expire-days N` (recordings older than that go). Eviction
// runs at start-up, after every new recording, and hourly; runs never overlap in one process
// (a run asked for meanwhile follows the current one), and replicas may run it concurrently on one
// bucket since deleting twice is harmless.

import type { RecordingStore, StoredEntry } from './store';

export interface Retention {
  maxStoreBytes?: number;
  expireDays?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const HOURLY_MS = 60 * 60 * 1000;

export function newestFirst(a: StoredEntry, b: StoredEntry): number {
  return a.date < b.date ? 1 : a.date > b.date ? -1 : a.id < b.id ? -1 : 1;
}

/** The ids to delete: expired ones, then the oldest until the rest fit (the newest always stays). */
export function chooseEvictions(entries: readonly StoredEntry[], retention: Retention, now: number): string[] {
  const out: string[] = [];
  let total = 0;
  // Once one recording does not fit, it and every older one go (oldest first means none older stays).
  let full = false;
  for (const [i, entry] of [...entries].sort(newestFirst).entries()) {
    const expired = retention.expireDays !== undefined && now - Date.parse(entry.date) > retention.expireDays * DAY_MS;
    full ||= !expired && retention.maxStoreBytes !== undefined && i > 0 && total + entry.size > retention.maxStoreBytes;
    if (expired || full) out.push(entry.id);
    else total += entry.size;
  }
  return out;
}

export class Pruner {
  private tail: Promise<unknown> = Promise.resolve();
  private queued = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: RecordingStore,
    private readonly retention: Retention,
    private readonly log: (message: string) => void = (m) => process.stderr.write(`flameview: ${m}\n`),
    private readonly now: () => number = Date.now,
  ) {}

  get active(): boolean {
    return this.retention.maxStoreBytes !== undefined || this.retention.expireDays !== undefined;
  }

  /** Runs eviction after the run in progress, if any; resolves with what this run deleted. */
  run(): Promise<string[]> {
    if (!this.active) return Promise.resolve([]);
    this.queued++;
    const next = this.tail.then(() => {
      this.queued--;
      return this.once();
    });
    this.tail = next.catch(() => undefined);
    return next;
  }

  /** Runs eviction in the background (unless a run that has not started yet will), logging failures. */
  soon(): void {
    if (this.queued > 0) return;
    this.run().catch((e: Error) => this.log(`eviction failed: ${e.message}`));
  }

  private async once(): Promise<string[]> {
    const doomed = chooseEvictions(await this.store.entries(), this.retention, this.now());
    const deleted: string[] = [];
    for (const id of doomed) if (await this.store.delete(id)) deleted.push(id);
    if (deleted.length) this.log(`evicted ${deleted.length} recording${deleted.length === 1 ? '' : 's'} (${this.describe()})`);
    return deleted;
  }

  startHourly(): void {
    if (!this.active || this.timer) return;
    this.timer = setInterval(() => this.soon(), HOURLY_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  describe(): string {
    const parts: string[] = [];
    if (this.retention.maxStoreBytes !== undefined) parts.push(`--max-store ${this.retention.maxStoreBytes}`);
    if (this.retention.expireDays !== undefined) parts.push(`--expire-days ${this.retention.expireDays}`);
    return parts.join(', ');
  }
}
