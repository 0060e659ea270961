import { useFlow } from '@/stores/flow';

/** Progress shows the waiting message of a submission over the page. */
export function Progress() {
  const message = useFlow((s) => s.progress);
  if (!message) return null;
  return (
    <div className="progress" role="status" aria-live="polite">
      <div className="progress__box">
        <div className="spinner" aria-hidden="true" />
        <p className="lead" style={{ margin: '0 auto 8px' }}>
          {message}
        </p>
        <p className="muted" style={{ margin: '0 auto' }}>
          This can take a minute or two. Please keep this page open.
        </p>
      </div>
    </div>
  );
}
