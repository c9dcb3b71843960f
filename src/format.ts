// Number formatting for the shell's progress and notices.

export { formatBytes } from './core/export/weight-text';
import { formatBytes } from './core/export/weight-text';

const integer = new Intl.NumberFormat('en-US');

export function formatCount(n: number): string {
  return integer.format(n);
}

/** "12 MB of 40 MB · 1,234 samples", or without "of …" when the size is unknown. */
export function progressText(bytesRead: number, totalBytes: number | null, samples: number): string {
  const read = totalBytes !== null ? `${formatBytes(Math.min(bytesRead, totalBytes))} of ${formatBytes(totalBytes)}` : `${formatBytes(bytesRead)} read`;
  return `${read} · ${formatCount(samples)} ${samples === 1 ? 'sample' : 'samples'}`;
}
