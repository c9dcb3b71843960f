// Browser side of the Export menu: save a Blob under a name, and read the flame graph canvas as
// PNG at its backing-store (device-pixel) resolution.

export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoked later: some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The flame graph canvas (drawn at devicePixelRatio) as a PNG, or null when there is none. */
export function flameCanvasPng(root: ParentNode = document): Promise<Blob | null> {
  const canvas = root.querySelector<HTMLCanvasElement>('canvas.flame-canvas');
  if (!canvas || canvas.width === 0 || canvas.height === 0) return Promise.resolve(null);
  return new Promise((resolve) => canvas.toBlob((blob) => resolve(blob), 'image/png'));
}
