// Types for scripts/build.mjs (plain JavaScript so `npm ci` can run it before anything is built).
export declare const NODE_ENTRIES: Record<string, string>;
export declare function buildNode(options?: { quiet?: boolean }): Promise<string[]>;
