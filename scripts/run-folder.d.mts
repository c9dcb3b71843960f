/** Removes a test run's temporary folder; a failure is said on stderr, not thrown. */
export function removeRunFolder(root: string): void;
