import { useFlow } from '@/stores/flow';

/**
 * FlowNotice shows the flow's pending notice (for example why the patient is
 * now on another lender's screen), announced to screen readers; nothing when
 * there is none.
 */
export function FlowNotice() {
  const notice = useFlow((s) => s.notice);
  if (!notice) return null;
  return (
    <div className="notice" role="status">
      <p className="notice__text">{notice}</p>
    </div>
  );
}
