// Bootstrap for bench/derive-bench.ts: a worker_threads worker does not inherit tsx's loader.
import { tsImport } from 'tsx/esm/api';
await tsImport('./derive-bench-worker.ts', import.meta.url);
