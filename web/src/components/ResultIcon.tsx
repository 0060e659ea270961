// Apart from the shell's icons (Icons.tsx): only lazy screens show it (results, finish, errors), so it loads with them.
export function ResultIcon({ kind }: { kind: 'ok' | 'info' | 'warn' }) {
  const color = kind === 'ok' ? '#1e6b3e' : kind === 'warn' ? '#8a5300' : '#0b3a6e';
  return (
    <svg className="result-icon" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <circle cx="32" cy="32" r="30" fill={color} />
      {kind === 'ok' ? (
        <path d="M18 33l9 9 19-20" fill="none" stroke="#fff" strokeWidth="6" strokeLinecap="round" strokeLinejoin="round" />
      ) : kind === 'warn' ? (
        <path d="M32 16v22M32 46v2" fill="none" stroke="#fff" strokeWidth="6" strokeLinecap="round" />
      ) : (
        <path d="M32 28v20M32 17v2" fill="none" stroke="#fff" strokeWidth="6" strokeLinecap="round" />
      )}
    </svg>
  );
}
