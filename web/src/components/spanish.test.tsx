import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { setLanguage } from '@/lib/i18n';
import { DocumentBox } from './DocumentBox';
import { ErrorBoundary } from './ErrorBoundary';
import { StillWorking } from './StillWorking';
import { TextField } from './TextField';

/* The shared parts of every screen in Spanish (docs/languages.md). */

function Broken(): React.ReactNode {
  throw new Error('boom');
}

describe('shared parts in Spanish', () => {
  it('a part that fails says so in Spanish, sending the patient to the office manager with "con"', async () => {
    await setLanguage('es');
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <ErrorBoundary>
        <Broken />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert').textContent).toBe(
      'Algo salió mal al mostrar esta parte de la página. Para recibir ayuda, consulte con el encargado de la oficina.',
    );
    vi.restoreAllMocks();
  });

  it('the still-working screen names the lender and offers to try again', async () => {
    await setLanguage('es');
    render(<StillWorking lender="Synchrony" offline={false} onRetry={vi.fn()} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Synchrony todavía está trabajando en su solicitud' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Intentar de nuevo' })).toBeTruthy();
  });

  it('a document that did not load, and a field in error, in Spanish', async () => {
    await setLanguage('es');
    render(
      <>
        <DocumentBox doc={null} failed onRetry={vi.fn()} />
        <TextField id="f" label="Monto" value="" error="Escriba una cantidad." onChange={vi.fn()} />
      </>,
    );
    expect(screen.getByText('No pudimos cargar los términos en este momento.')).toBeTruthy();
    expect(screen.getByText('Escriba una cantidad.').textContent).toBe('Error: Escriba una cantidad.');
  });
});

describe('a lender’s document in another language', () => {
  const doc = (language: string) => ({
    id: 'd',
    version: '1',
    title: 'Credit agreement',
    contentType: 'text/plain' as const,
    content: 'You agree to repay.',
    sha256: 'x',
    language,
  });

  it('says, in Spanish and before the document, that the lender gives it in English only, and marks it English', async () => {
    await setLanguage('es');
    render(<DocumentBox doc={doc('en')} />);
    const note = screen.getByRole('note');
    expect(note.textContent).toBe('Este documento solo está disponible en inglés.');
    const region = screen.getByRole('region', { name: 'Credit agreement' });
    expect(region.getAttribute('lang')).toBe('en');
    expect(note.compareDocumentPosition(region) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('says nothing when the document is in the patient’s language', async () => {
    await setLanguage('es');
    render(<DocumentBox doc={doc('es')} />);
    expect(screen.queryByRole('note')).toBeNull();
    expect(screen.getByRole('region').getAttribute('lang')).toBeNull();
  });
});
