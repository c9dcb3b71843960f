// The worker side of bench/derive-bench.ts: what workers/analysis.worker.ts does (setBase once,
// then derive → copy when shared → transfer the columns back), on worker_threads instead of a
// browser Worker, so the crossing costs (structured clone in, transfer out) are measured too.

import { parentPort } from 'node:worker_threads';
import { copyTree, derive, treeColumns, type DeriveInput, type DeriveRequest } from '../src/core/views/derive';

let input: DeriveInput | null = null;

parentPort!.on('message', (msg: { type: 'base'; input: DeriveInput } | { type: 'derive'; request: DeriveRequest }) => {
  if (msg.type === 'base') {
    input = msg.input;
    parentPort!.postMessage({ type: 'ready' });
    return;
  }
  const t0 = performance.now();
  const r = derive(input!, msg.request);
  const tree = r.sharesInput ? copyTree(r.tree) : r.tree;
  const ms = performance.now() - t0;
  const buffers = treeColumns(tree);
  if (r.toNew) buffers.push(r.toNew.buffer as ArrayBuffer);
  parentPort!.postMessage({ type: 'result', tree, toNew: r.toNew, ranged: r.ranged, ms }, buffers);
});
