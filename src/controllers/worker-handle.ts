// A worker started on first use behind comlink (the profile workers of both recording panes, the
// compare worker). A worker that cannot start (blocked by a Content-Security-Policy, a failed
// download) would leave every call pending forever, so its 'error' event tells the owner and the
// next call starts a fresh worker.

import * as Comlink from 'comlink';

export class WorkerHandle<Api> {
  private remote: Comlink.Remote<Api> | null = null;

  constructor(
    /** Starts the worker (`new Worker(new URL(…, import.meta.url))`, literal for the bundler). */
    private readonly start: () => Worker,
    /** Called once per failed worker with what the browser said (or a fallback). */
    private readonly onFail: (reason: string) => void,
  ) {}

  /** The running worker, started if needed. */
  get(): Comlink.Remote<Api> {
    if (!this.remote) {
      const w = this.start();
      const remote = Comlink.wrap<Api>(w);
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
  get current(): Comlink.Remote<Api> | null {
    return this.remote;
  }
}
