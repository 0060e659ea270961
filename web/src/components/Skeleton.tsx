import { useT } from '@/lib/i18n';

/** Skeleton reserves the space of content that is loading, so the layout does not jump. */
export function Skeleton({ height = 52, width = '100%', count = 1 }: { height?: number; width?: number | string; count?: number }) {
  return (
    <div aria-hidden="true">
      {Array.from({ length: count }, (_, i) => (
        <div key={i} className="skeleton" style={{ height, width, marginBottom: 16 }} />
      ))}
    </div>
  );
}

/**
 * Loading says that a screen's content is on its way, and keeps its place: a title's and three
 * fields' shapes. A link's page draws the same before the app has loaded (lib/firstWords.ts).
 */
export function Loading({ label, height = 320 }: { label?: string; height?: number }) {
  const t = useT();
  return (
    <div role="status" aria-live="polite" style={{ minHeight: height }}>
      <span className="visually-hidden">{label ?? t('common.loading')}</span>
      <div aria-hidden="true">
        <div className="skeleton skeleton--title" />
        <div className="skeleton skeleton--field" />
        <div className="skeleton skeleton--field" />
        <div className="skeleton skeleton--field" />
      </div>
    </div>
  );
}
