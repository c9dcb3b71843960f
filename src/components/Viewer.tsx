// The viewer for an open recording (placeholder until the flame graph lands).
export function Viewer() {
  return <div className="viewer" />;
}
