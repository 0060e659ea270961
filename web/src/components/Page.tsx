import { useEffect, useRef, type ReactNode } from 'react';

/** Page gives every screen one h1, focused on arrival so screen readers announce the new screen. */
export function Page({ title, children, lead }: { title: string; lead?: ReactNode; children?: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} — Chairside`;
    ref.current?.focus({ preventScroll: true });
  }, [title]);
  return (
    <>
      <h1 ref={ref} tabIndex={-1}>
        {title}
      </h1>
      {lead ? <p className="lead">{lead}</p> : null}
      {children}
    </>
  );
}
