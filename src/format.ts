// Number formatting for the shell's progress and notices.

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

const integer = new Intl.NumberFormat('en-US');

export function formatCount(n: number): string {
  return integer.format(n);
}

/** "12 MB of 40 MB · 1,234 samples", or without "of …" when the size is unknown. */
export function progressText(bytesRead: number, totalBytes: number | null, samples: number): string {
  const read = totalBytes !== null ? `${formatBytes(Math.min(bytesRead, totalBytes))} of ${formatBytes(totalBytes)}` : `${formatBytes(bytesRead)} read`;
  return `${read} · ${formatCount(samples)} ${samples === 1 ? 'sample' : 'samples'}`;
}
