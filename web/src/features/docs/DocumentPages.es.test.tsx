import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { configureApi } from '@/lib/api/client';
import { setLanguage } from '@/lib/i18n';
import { flow } from '@/stores/flow';
import { json, routes } from '@/test/fetch';
import { forgetDocuments } from './api';
import { AccessibilityPage, DocumentPage } from './DocumentPages';

/* The documents pages in Spanish: our accessibility statement in full, and the chrome around a document the server sends. */

function show(path: string) {
  render(
    <RouterProvider
      router={createMemoryRouter(
        [
          { path: '/accessibility', Component: AccessibilityPage },
          { path: '/docs/:doc', Component: DocumentPage },
        ],
        { initialEntries: [path] },
      )}
    />,
  );
}

beforeEach(() => {
  flow.reset();
  forgetDocuments();
  configureApi({ getSessionId: () => '', navigate: vi.fn(), onValidation: vi.fn(), currentPath: () => '/docs' });
});
afterEach(() => vi.unstubAllGlobals());

describe('documents pages in Spanish', () => {
  it('the accessibility statement is in Spanish, and asks for help with the office’s words', async () => {
    await setLanguage('es');
    show('/accessibility');
    expect(screen.getByRole('heading', { level: 1, name: 'Accesibilidad' })).toBeTruthy();
    expect(screen.getByText(/Pautas de Accesibilidad para el Contenido Web \(WCAG\) 2\.2 en el nivel AA/)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Qué puede esperar' })).toBeTruthy();
    expect(screen.getByText(/en inglés y en español/)).toBeTruthy();
    expect(screen.getByText(/hable con el encargado de la oficina:/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Volver' })).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/\b(a|de) el\b/);
  });

  it('a document the server does not have is said in Spanish', async () => {
    await setLanguage('es');
    routes({});
    show('/docs/privacy');
    expect(await screen.findByRole('heading', { level: 1, name: 'Página no encontrada' })).toBeTruthy();
    expect(screen.getByText('No encontramos este documento. Consulte con el encargado de la oficina para obtener una copia.')).toBeTruthy();
  });

  it('a document shows with its version and tools in Spanish', async () => {
    await setLanguage('es');
    routes({
      '/documents/privacy': [
        json({ id: 'privacy', version: '3', title: '', contentType: 'text/plain', content: 'Texto.', sha256: 'x', language: 'es' }),
      ],
    });
    show('/docs/privacy');
    expect(await screen.findByText('Versión 3')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Política de privacidad' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Imprimir' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Listo' })).toBeTruthy();
  });
});
