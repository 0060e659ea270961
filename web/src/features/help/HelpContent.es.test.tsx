import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { configureApi } from '@/lib/api/client';
import type { Glossary } from '@/lib/api/types';
import { setLanguage } from '@/lib/i18n';
import { flow } from '@/stores/flow';
import { json, routes } from '@/test/fetch';
import { forgetHelp } from './api';
import { HelpContent } from './HelpContent';

/* The help's own words in Spanish; the FAQs and the glossary themselves come from the server in the patient's language. */

const GLOSSARY: Glossary = { language: 'es', entries: [{ term: 'APR', definition: 'El costo anual de pedir prestado.' }] };

beforeEach(() => {
  flow.reset();
  forgetHelp();
  configureApi({ getSessionId: () => 's1', navigate: vi.fn(), onValidation: vi.fn(), currentPath: () => '/contexthelp' });
});
afterEach(() => vi.unstubAllGlobals());

describe('help in Spanish', () => {
  it('names the tabs, the search and the documents in Spanish, and says a search found nothing in Spanish', async () => {
    await setLanguage('es');
    routes({ '/help/glossary': [json(GLOSSARY)], '/help/glossary/search': [json({ language: 'es', entries: [] })] });
    render(<RouterProvider router={createMemoryRouter([{ path: '/', element: <HelpContent headingLevel={1} initialTab={1} /> }])} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Glosario' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Preguntas frecuentes' })).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'APR' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Documentos' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Aviso de privacidad' })).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Buscar en el glosario'), 'zzz');
    expect(await screen.findByText('Ningún término coincide con “zzz”.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Borrar' })).toBeTruthy();
  });
});

describe('help after a switch of language', () => {
  it('asks the server again, in the new language, instead of showing the copy kept in the old one', async () => {
    const calls = routes({
      '/help/glossary': [json({ language: 'en', entries: [{ term: 'Credit limit', definition: 'The most you may owe.' }] }), json(GLOSSARY)],
    });
    render(<RouterProvider router={createMemoryRouter([{ path: '/', element: <HelpContent headingLevel={1} initialTab={1} /> }])} />);
    expect(await screen.findByRole('button', { name: 'Credit limit' })).toBeTruthy();
    await setLanguage('es');
    expect(await screen.findByRole('button', { name: 'APR' })).toBeTruthy();
    expect(calls.filter((c) => c.path === '/help/glossary')).toHaveLength(2);
  });
});
