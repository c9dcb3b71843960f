// A self-contained HTML report (core/export/report.ts) carries its recordings in the page: at
// start they open as a dropped file would (the second as the comparison), instead of the demo.

import { fromBase64, RECORDING_ELEMENT_PREFIX } from '../core/export/report';
import { openCompareFile, openFile } from './recordings';

/** The recordings this page carries, as files; empty for the served app. */
export function reportRecordings(doc: Document): File[] {
  const files: File[] = [];
  for (let i = 0; i < 2; i++) {
    const el = doc.getElementById(`${RECORDING_ELEMENT_PREFIX}${i}`);
    if (!el) break;
    const text = el.textContent ?? '';
    // The browser's own decoder where it has one (Chromium 140+, Firefox 133+): ten times faster.
    const native = (Uint8Array as unknown as { fromBase64?: (s: string) => Uint8Array }).fromBase64;
    const bytes = native ? native.call(Uint8Array, text) : fromBase64(text);
    files.push(new File([bytes as Uint8Array<ArrayBuffer>], el.dataset.name || `recording-${i + 1}`));
  }
  return files;
}

/** Opens the report's recordings; false when the page carries none. */
export function openReportRecordings(doc: Document): boolean {
  const [a, b] = reportRecordings(doc);
  if (!a) return false;
  void openFile(a);
  if (b) void openCompareFile(b);
  return true;
}
