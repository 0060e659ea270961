import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * Modal is a native <dialog> opened with showModal(): the browser traps
 * focus, closes on Escape and marks the rest of the page inert — without
 * injecting a <style> element, which the strict CSP (style-src 'self')
 * would refuse.
 */
export function Modal({
  title,
  onClose,
  children,
  variant = 'dialog',
  description,
  closeLabel,
}: {
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  variant?: 'dialog' | 'drawer';
  description?: ReactNode;
  /** Shows a Close button at the top (drawers). */
  closeLabel?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    const d = ref.current;
    const opener = document.activeElement as HTMLElement | null;
    if (d && !d.open) {
      if (typeof d.showModal === 'function') d.showModal();
      else d.setAttribute('open', '');
    }
    return () => {
      if (d?.open && typeof d.close === 'function') d.close();
      opener?.focus?.();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      className={variant === 'drawer' ? 'drawer' : 'dialog'}
      aria-labelledby={titleId}
      aria-describedby={description ? descId : undefined}
      onCancel={(e) => {
        e.preventDefault();
        onCloseRef.current();
      }}
      onClick={(e) => {
        // A tap on the backdrop (outside the box) closes a drawer.
        if (variant === 'drawer' && e.target === ref.current) onCloseRef.current();
      }}
    >
      <div className="dialog__inner">
        {closeLabel ? (
          <button type="button" className="btn btn--secondary drawer__close" onClick={() => onCloseRef.current()}>
            {closeLabel}
          </button>
        ) : null}
        <h2 id={titleId}>{title}</h2>
        {description ? <div id={descId}>{description}</div> : null}
        {children}
      </div>
    </dialog>
  );
}
