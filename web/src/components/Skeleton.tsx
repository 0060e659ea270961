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

export function Loading({ label, height = 320 }: { label?: string; height?: number }) {
  const t = useT();
  return (
    <div role="status" aria-live="polite" style={{ minHeight: height }}>
      <span className="visually-hidden">{label ?? t('common.loading')}</span>
      <Skeleton height={40} width="60%" />
      <Skeleton height={52} count={3} />
    </div>
  );
}
