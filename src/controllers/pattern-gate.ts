// The pattern transforms (focus-re: and the others) match a regular expression in the analysis
// worker, where a catastrophic pattern would stall every derivation. The search already bounds a
// pattern's time (SearchClient: its own worker, terminated after SEARCH_TIMEOUT_MS), so a pattern
// runs in a transform only after it has matched there within that time: the search box's
// current pattern has (its status is 'done'); any other (a link, back/forward) is tried here
// first, with a SearchClient of its own. Matching is per distinct name in both workers
// (model/match-names.ts), so the analysis worker then takes about the time the search took.

import type { ProfileSnapshot } from '../core/views/snapshot';
import type { Transform } from '../core/views/transforms';
import type { StoreState } from '../store/types';
import { SEARCH_TIMEOUT_MS, SearchClient } from './search-client';

type PatternTransform = Extract<Transform, { kind: 'pattern' }>;

const keyOf = (t: { pattern: string; ignoreCase: boolean }) => `${t.ignoreCase ? 'i' : '-'}${t.pattern}`;

/** What a check found: every pattern may run; a newer check overtook it; or one may not run (and why). */
export type GateVerdict = { kind: 'safe' } | { kind: 'stale' } | { kind: 'refused'; pattern: PatternTransform; message: string };

export class PatternGate {
  private snapshot: ProfileSnapshot | null = null;
  private readonly safe = new Set<string>();
  private client: SearchClient | null = null;

  constructor(private readonly makeClient: () => SearchClient = () => new SearchClient()) {}

  /**
   * The patterns of `transforms` that have not yet been shown to match in time on this
   * recording's names (none: the derivation may go ahead at once).
   */
  pending(s: Pick<StoreState, 'search'>, snapshot: ProfileSnapshot, transforms: readonly Transform[]): PatternTransform[] {
    if (this.snapshot !== snapshot) {
      this.snapshot = snapshot;
      this.safe.clear();
      this.client?.setNames(snapshot.frames.strings, snapshot.frames.name);
    }
    const { pattern, caseInsensitive, status, matches } = s.search;
    if (pattern && status === 'done' && matches) this.safe.add(keyOf({ pattern, ignoreCase: caseInsensitive }));
    return transforms.filter((t): t is PatternTransform => t.kind === 'pattern' && !this.safe.has(keyOf(t)));
  }

  /** Tries the patterns one by one in the search worker; the first that times out or fails is the verdict. */
  async check(snapshot: ProfileSnapshot, patterns: readonly PatternTransform[]): Promise<GateVerdict> {
    if (!this.client) {
      this.client = this.makeClient();
      this.client.setNames(snapshot.frames.strings, snapshot.frames.name);
    }
    // A worker's start (its module, the names) counts against the timeout, and on a busy machine
    // that alone can exceed it (a timeout also restarts the worker): a trivial pattern starts it
    // first (a few tries), so that a timeout below is the pattern's own.
    for (let tries = 0; tries < 3; tries++) {
      const warm = await this.client.search('^$', false);
      if (warm.kind === 'done') break;
      if (warm.kind === 'cancelled' || this.snapshot !== snapshot) return { kind: 'stale' };
    }
    for (const t of patterns) {
      if (this.safe.has(keyOf(t))) continue;
      const outcome = await this.client.search(t.pattern, t.ignoreCase);
      if (this.snapshot !== snapshot || outcome.kind === 'cancelled') return { kind: 'stale' };
      if (outcome.kind === 'done') this.safe.add(keyOf(t));
      else if (outcome.kind === 'timeout') {
        return { kind: 'refused', pattern: t, message: `The pattern /${t.pattern}/ took longer than ${SEARCH_TIMEOUT_MS / 1000} s to match the function names, so its transform was removed.` };
      } else return { kind: 'refused', pattern: t, message: `The pattern /${t.pattern}/ could not be used: ${outcome.message}` };
    }
    return { kind: 'safe' };
  }

  dispose(): void {
    this.client?.dispose();
    this.client = null;
  }
}
