/**
 * Failure is a step's own error, in the patient's words, under its form: a
 * warning announced as soon as it appears (role alert), nothing when there
 * is none.
 */
export function Failure({ message }: { message?: string | null }) {
  return message ? (
    <p className="notice notice--warn" role="alert">
      {message}
    </p>
  ) : null;
}
