import { useStore } from '../../store/store';
import { formatCount } from '../../format';

/**
 * A visually hidden live region: screen readers hear when a recording has opened (errors are
 * announced by the alert). The region is always present so that changes to it are announced.
 */
export function LoadAnnouncer() {
  const name = useStore((s) => s.recordings.a.name);
  const samples = useStore((s) => s.recordings.a.snapshot?.meta.samples ?? null);
  const loading = useStore((s) => s.recordings.a.loading?.name ?? null);
  const text = loading !== null ? `Opening ${loading}` : name !== null && samples !== null ? `Opened ${name}: ${formatCount(samples)} samples` : '';
  return (
    <div className="visually-hidden" role="status" aria-label="Recording">
      {text}
    </div>
  );
}
