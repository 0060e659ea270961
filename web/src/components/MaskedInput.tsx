import { useLayoutEffect, useRef, type InputHTMLAttributes, type Ref } from 'react';
import { caretAfter } from '@/lib/masks';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'> & {
  value: string;
  /** shape answers what the box shows for what was typed (lib/masks.ts, lib/dates.ts); deleting is true when the value got shorter. */
  shape: (typed: string, deleting: boolean) => string;
  onValueChange: (shaped: string) => void;
  inputRef?: Ref<HTMLInputElement>;
};

/**
 * MaskedInput is a text box whose value a mask shapes as the patient types
 * or pastes. The caret stays where the patient was typing, not thrown to
 * the end, when a separator comes or goes before it.
 */
export function MaskedInput({ value, shape, onValueChange, inputRef, ...rest }: Props) {
  const own = useRef<HTMLInputElement | null>(null);
  const caret = useRef<number | null>(null);

  useLayoutEffect(() => {
    const el = own.current;
    if (caret.current === null || !el || document.activeElement !== el) return;
    el.setSelectionRange(caret.current, caret.current);
    caret.current = null;
  });

  const setRef = (el: HTMLInputElement | null) => {
    own.current = el;
    if (typeof inputRef === 'function') inputRef(el);
    else if (inputRef) inputRef.current = el;
  };

  return (
    <input
      {...rest}
      ref={setRef}
      type={rest.type ?? 'text'}
      value={value}
      onChange={(e) => {
        const typed = e.target.value;
        const shaped = shape(typed, typed.length < value.length);
        const at = caretAfter(typed, e.target.selectionStart ?? typed.length, shaped);
        if (shaped === value) {
          // Nothing changes (a letter in a number, a digit past the end): React puts the old value back
          // once this handler returns, which would throw the caret to the end; put it back after that.
          const el = e.target;
          queueMicrotask(() => el.setSelectionRange(at, at));
          return;
        }
        caret.current = at;
        onValueChange(shaped);
      }}
    />
  );
}
