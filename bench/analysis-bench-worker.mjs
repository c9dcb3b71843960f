// Bootstrap for bench/analysis-bench.ts: a worker_threads worker does not inherit tsx's loader.
import { tsImport } from 'tsx/esm/api';
await tsImport('./analysis-bench-worker.ts', import.meta.url);
