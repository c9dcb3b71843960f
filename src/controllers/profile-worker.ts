// A profile worker started on first use, shared by the main recording's client and the
// comparison's. A worker that cannot start (blocked by a Content-Security-Policy, a failed
// download) would leave every call pending forever, so its 'error' event tells the owner and
// the next call starts a fresh worker.

import * as Comlink from 'comlink';
import type { ProfileWorkerApi } from '../../workers/profile.worker';

export class ProfileWorkerHandle {
  private remote: Comlink.Remote<ProfileWorkerApi> | null = null;

  constructor(
    private readonly name: string,
    /** Called once per failed worker with what the browser said (or a fallback). */
    private readonly onFail: (reason: string) => void,
  ) {}

  /** The running worker, started if needed. */
  get(): Comlink.Remote<ProfileWorkerApi> {
    if (!this.remote) {
      const w = new Worker(new URL('../../workers/profile.worker.ts', import.meta.url), { type: 'module', name: this.name });
      const remote = Comlink.wrap<ProfileWorkerApi>(w);
      w.addEventListener('error', (event) => {
        event.preventDefault();
        w.terminate();
        if (this.remote !== remote) return;
        this.remote = null;
        this.onFail(event.message || 'it could not be started');
      });
      this.remote = remote;
    }
    return this.remote;
  }

  /** The running worker, or null when none was started (nothing to cancel). */
  get current(): Comlink.Remote<ProfileWorkerApi> | null {
    return this.remote;
  }
}
