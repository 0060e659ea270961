import { useEffect, useRef, type ReactNode } from 'react';

/** Page gives every screen one h1, focused on arrival so screen readers announce the new screen. */
export function Page({ title, children, lead }: { title: string; lead?: ReactNode; children?: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} — Chairside`;
    // Focus makes the browser lay the page out at once. Asked for in the next frame, it
    // uses the layout that frame makes anyway, rather than one more of its own before it
    // (docs/performance.md, "The application screen"). What took the focus meanwhile keeps
    // it, as it did when this focus came first: a dialog's first button, a field.
    const before = document.activeElement;
    const frame = requestAnimationFrame(() => {
      if (document.activeElement === before) ref.current?.focus({ preventScroll: true });
    });
    return () => cancelAnimationFrame(frame);
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
