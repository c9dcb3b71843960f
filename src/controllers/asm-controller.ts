// Keeps the Assembly panel's answer in step with the selected function while the panel is open:
// its sampled offsets from the profile worker, and, when the page was opened by `flameview FILE`
// (the link's asm=), the disassembly from that route. The latest request wins: a new function, a
// new recording or a closed panel drops the answer in flight. Returns the unsubscribe.

import { checkDisassembly, type Disassembly } from '../core/query/disassembly';
import { Latest } from '../core/util/latest';
import { useStore } from '../store/store';
import { watch } from '../store/watch';
import { functionOffsets } from './recordings';

/** The route answers within objdump's own timeout; past this the panel says so. */
const REQUEST_TIMEOUT_MS = 60_000;

async function fetchDisassembly(base: string, fn: string): Promise<{ disassembly: Disassembly | null; error: string | null }> {
  let response: Response;
  try {
    response = await fetch(`${base}?function=${encodeURIComponent(fn)}`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS), credentials: 'same-origin' });
  } catch (e) {
    return { disassembly: null, error: `the disassembly could not be fetched (${e instanceof Error ? e.message : String(e)}): is flameview still running?` };
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    return { disassembly: null, error: `the disassembly route answered ${response.status} without JSON` };
  }
  if (!response.ok) {
    const reason = body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string' ? (body as { error: string }).error : `status ${response.status}`;
    return { disassembly: null, error: reason };
  }
  const checked = checkDisassembly(body);
  return typeof checked === 'string' ? { disassembly: null, error: checked } : { disassembly: checked, error: null };
}

export function startAsmController(): () => void {
  const latest = new Latest();
  const run = async () => {
    const s = useStore.getState();
    const fn = s.analysis.selectedFunction;
    if (s.analysis.panel !== 'asm' || fn === null || !s.recordings.a.snapshot) {
      latest.cancel();
      if (s.asm.answer.status !== 'idle') s.setAsmAnswer({ status: 'idle' });
      return;
    }
    const id = latest.next();
    const base = s.asm.base;
    s.setAsmAnswer({ status: 'loading', fn });
    const [blocks, served] = await Promise.all([functionOffsets(fn).catch(() => null), base ? fetchDisassembly(base, fn) : Promise.resolve(null)]);
    if (!latest.isLatest(id)) return;
    useStore.getState().setAsmAnswer({ status: 'ready', fn, offsets: blocks?.[0] ?? null, disassembly: served?.disassembly ?? null, error: served?.error ?? null });
  };
  const unsub = watch((s) => ({ panel: s.analysis.panel, fn: s.analysis.selectedFunction, snapshot: s.recordings.a.snapshot, base: s.asm.base }), () => void run());
  void run();
  return unsub;
}
