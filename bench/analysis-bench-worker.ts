// The worker side of bench/analysis-bench.ts: what workers/analysis.worker.ts does for the
// analysis panel (analyseTable / analyseCallersCallees over a tree it holds, columns back by transfer).

import { parentPort } from 'node:worker_threads';
import type { CallTree } from '../src/core/model/call-tree';
import type { FrameTable } from '../src/core/model/frame-table';
import { analyseCallersCallees, analyseTable, callersCalleesColumns, tableColumns } from '../src/core/views/derive-analysis';

let base: { tree: CallTree; frames: FrameTable } | null = null;

type Msg = { type: 'base'; tree: CallTree; frames: FrameTable } | { type: 'table' } | { type: 'sandwich'; name: string };
parentPort!.on('message', (msg: Msg) => {
  if (msg.type === 'base') {
    base = { tree: msg.tree, frames: msg.frames };
    parentPort!.postMessage({ type: 'ready' });
    return;
  }
  // A fresh tree object per request, so the memoised views recompute (as for a new derived tree).
  const tree = { ...base!.tree };
  if (msg.type === 'table') {
    const r = analyseTable(tree, base!.frames, false);
    parentPort!.postMessage({ type: 'result', reply: r }, tableColumns(r.table));
  } else {
    const r = analyseCallersCallees(tree, base!.frames, msg.name, false);
    parentPort!.postMessage({ type: 'result', reply: r }, callersCalleesColumns(r));
  }
});
