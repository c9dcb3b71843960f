// Why a fetch of a `#profile=` URL failed, when the browser only says "TypeError: Failed to
// fetch": the page's Content-Security-Policy refused it, the page is https and the URL http
// (mixed content), the server answered without allowing this origin to read it (CORS), or the
// server could not be reached at all (network). HTTP error statuses never get here: they are
// responses, reported with their status.
//
// How: a CSP refusal raises a `securitypolicyviolation` event in the worker or page that
// fetched (collected by watchCspViolations); a server that answers a `no-cors` request (an
// opaque response, which CORS does not guard) is reachable, so the failure was CORS; a `no-cors`
// request that fails too means the network. Pure apart from the injected fetch and event target.

export type FetchFailureCause = 'csp' | 'mixed-content' | 'cors' | 'network';

export interface DiagnoseDeps {
  fetch: typeof fetch;
  /** The fetching context's own URL (the worker's or page's location), for origin and scheme. */
  base?: string;
  /** URLs refused by the Content-Security-Policy so far (see watchCspViolations). */
  cspBlocked?: () => readonly string[];
}

export async function diagnoseFetchFailure(url: string, deps: DiagnoseDeps): Promise<FetchFailureCause> {
  const target = new URL(url, deps.base);
  if (deps.base && new URL(deps.base).protocol === 'https:' && target.protocol === 'http:') return 'mixed-content';
  const refused = () => (deps.cspBlocked?.() ?? []).some((blocked) => sameResource(blocked, target));
  if (refused()) return 'csp';
  try {
    await deps.fetch(target.href, { mode: 'no-cors', method: 'HEAD', cache: 'no-store', credentials: 'omit' });
    return 'cors';
  } catch {
    // The violation event is queued as a task: give it a moment to arrive.
    await new Promise((r) => setTimeout(r, 50));
    return refused() ? 'csp' : 'network';
  }
}

/** A CSP report's blockedURI is the URL, or only its origin when the policy hides the path. */
function sameResource(blocked: string, target: URL): boolean {
  if (blocked === target.href) return true;
  try {
    return new URL(blocked).origin === target.origin;
  } catch {
    return false;
  }
}

/** Starts recording the URLs a CSP refuses in `scope` (a worker's or window's global). */
export function watchCspViolations(scope: { addEventListener?: (type: string, listener: (e: Event) => void) => void }): () => readonly string[] {
  const blocked: string[] = [];
  scope.addEventListener?.('securitypolicyviolation', (e) => {
    const uri = (e as Event & { blockedURI?: string }).blockedURI;
    if (uri && blocked.length < 100) blocked.push(uri);
  });
  return () => blocked;
}

/** The one-line message for a fetch of `url` that failed for `cause`. */
export function fetchFailureMessage(url: string, cause: FetchFailureCause, pageOrigin?: string): string {
  const origin = new URL(url, pageOrigin).origin;
  const fallback = 'Download it and open the file here, or run `flameview FILE`.';
  switch (cause) {
    case 'csp':
      return `Could not fetch ${url}: this page's Content-Security-Policy does not allow connecting to ${origin} (connect-src). ${fallback}`;
    case 'mixed-content':
      return `Could not fetch ${url}: this page is https and the recording is http, which browsers block (mixed content). Use an https URL. ${fallback}`;
    case 'cors':
      return (
        `Could not fetch ${url}: ${origin} answered but does not allow ${pageOrigin ? `this page (${pageOrigin})` : 'this page'} to read it (CORS: ` +
        `it must send Access-Control-Allow-Origin). ${fallback}`
      );
    case 'network':
      return `Could not fetch ${url}: ${origin} could not be reached (network error: the server is down, the name does not resolve, or the connection was refused). ${fallback}`;
  }
}
