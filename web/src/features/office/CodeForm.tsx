import { Button } from '@/components/Button';
import { Failure } from '@/components/Failure';
import { TextField } from '@/components/TextField';
import type { useCodeForm } from './useCodeForm';

interface CodeFormProps {
  /** The form's state, from useCodeForm. */
  form: ReturnType<typeof useCodeForm>;
  id: string;
  label: string;
  hint?: string;
  numeric?: boolean;
  maxLength: number;
  submitLabel: string;
}

/** CodeForm is a form of one code to type, its failure and its button: the second step of signing in, or the first code of a new app. */
export function CodeForm({ form, id, label, hint, numeric, maxLength, submitLabel }: CodeFormProps) {
  return (
    <form noValidate onSubmit={(e) => void form.submit(e)}>
      <TextField
        id={id}
        label={label}
        hint={hint}
        numeric={numeric}
        autoComplete="one-time-code"
        maxLength={maxLength}
        value={form.code}
        error={form.error}
        inputRef={form.codeRef}
        onChange={form.setCode}
      />
      <Failure message={form.failure} />
      <div className="actions">
        <Button type="submit" disabled={form.busy} aria-disabled={form.busy}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
