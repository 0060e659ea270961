import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { hasChosenLanguage, setLanguage } from '@/lib/i18n';
import { buildHeaders } from '@/lib/api/client';
import type { StartFlowResponse } from '@/lib/api/types';
import { enterSession } from '@/flow/start';
import { fieldsKey, flow } from '@/stores/flow';
import { decision } from '@/test/fixtures';
import { routes as serve } from '@/test/fetch';
import { liveSession, openApp } from './testing';
import { refreshWarning } from './useRefreshWarning';

/*
 * The app's own frame in Spanish, through the real routes (docs/languages.md):
 * the stepper, the waiting overlay of a submission and a result screen.
 */

const P = 'synchrony_standard';

beforeEach(() => {
  flow.reset();
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
  serve({ '/log': [new Response(null, { status: 204 })] });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('the app in Spanish', () => {
  it('the stepper, the waiting overlay and the screen speak Spanish; money stays in US dollars', async () => {
    await setLanguage('es');
    liveSession(P, { purchaseAmountCents: 450_000 });
    flow.response(P, { preAuth: { ...decision(P, 'prequalified', { approvedAmountCents: 500_000 }), operation: 'prequalify' } });
    const router = openApp(`/providers/${P}/prequalified`);
    await waitFor(() => expect(router.state.navigation.state).toBe('idle'));
    expect(await screen.findByRole('heading', { level: 1, name: '¡Buenas noticias!' })).toBeTruthy();
    expect(screen.getByText('Usted precalifica con Synchrony por hasta')).toBeTruthy();
    expect(screen.getByText('$5,000.00')).toBeTruthy();

    const stepper = screen.getByRole('navigation', { name: 'Progreso' });
    expect(within(stepper).getByText('Paso 2 de 4 — Opciones de pago')).toBeTruthy();
    expect(within(stepper).getByText('(paso actual)', { exact: false })).toBeTruthy();

    flow.setProgress('Consultando sus opciones con Synchrony…');
    expect(await screen.findByText('Esto puede tardar uno o dos minutos. Mantenga esta página abierta.')).toBeTruthy();
    flow.setProgress(null);
  });

  it('the stepper follows a switch of language', async () => {
    liveSession(P, { purchaseAmountCents: 450_000 });
    flow.response(P, { preAuth: { ...decision(P, 'prequalified', { approvedAmountCents: 500_000 }), operation: 'prequalify' } });
    openApp(`/providers/${P}/prequalified`);
    expect(await screen.findByText('Step 2 of 4 — Payment options')).toBeTruthy();
    await setLanguage('es');
    expect(await screen.findByText('Paso 2 de 4 — Opciones de pago')).toBeTruthy();
  });

  it('words the refresh warning in the language of the moment', async () => {
    expect(refreshWarning()).toMatch(/^WARNING: Refreshing this page/);
    await setLanguage('es');
    expect(refreshWarning()).toMatch(/^ADVERTENCIA: Si vuelve a cargar esta página/);
  });
});

describe('choosing the language', () => {
  it('the switch on the screen turns the app to Spanish, sets <html lang>, is kept, and every call says it', async () => {
    openApp('/idle');
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome to Chairside' })).toBeTruthy();
    const button = screen.getByRole('button', { name: 'Español' });
    expect(button.getAttribute('lang')).toBe('es');
    button.click();
    expect(await screen.findByRole('heading', { level: 1, name: 'Le damos la bienvenida a Chairside' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('es');
    expect(hasChosenLanguage()).toBe(true);
    expect(buildHeaders(null, false)['Accept-Language']).toBe('es');
    expect(screen.getByRole('button', { name: 'English' }).getAttribute('lang')).toBe('en');
  });

  it('an office’s default language is spoken unless the patient already chose one', async () => {
    const start = (language?: 'en' | 'es') =>
      ({
        session: { webSessionId: 's1', env: 'test', groupId: 'g', properties: { applyMode: 'prequalify' }, dynamicProviderKey: P },
        application: { purchaseAmountCents: 0, primary: {} },
        location: { name: 'Clínica Dental del Valle', state: 'TX', groupId: 'g', language },
      }) as unknown as StartFlowResponse;
    enterSession(start('es'));
    await waitFor(() => expect(document.documentElement.lang).toBe('es'));

    await setLanguage('en', { remember: true });
    enterSession(start('es'));
    await new Promise((r) => setTimeout(r, 0));
    expect(document.documentElement.lang).toBe('en');
  });

  it('keeps the start’s form when it came in the language the app now speaks, and asks again otherwise', async () => {
    const key = fieldsKey(P, 'prequalify');
    const start = (language: 'en' | 'es') =>
      ({
        session: { webSessionId: 's1', env: 'test', groupId: 'g', properties: { applyMode: 'prequalify' }, dynamicProviderKey: P },
        application: { purchaseAmountCents: 0, primary: {} },
        location: { name: 'Clínica Dental del Valle', state: 'TX', groupId: 'g', language: 'es' },
        form: { providerKey: P, applyMode: 'prequalify', fields: [], fieldGroupRules: [], providers: [{ providerKey: P, name: 'Synchrony' }] },
        language,
      }) as unknown as StartFlowResponse;
    // Asked in English by a patient who chose nothing: the server answered the office's Spanish.
    enterSession(start('es'));
    expect(flow.get().fields[key]).toBeTruthy();
    await waitFor(() => expect(document.documentElement.lang).toBe('es'));

    // An answer in English at an office that speaks Spanish: the form's screen asks for it again.
    flow.reset();
    await setLanguage('en');
    enterSession(start('en'));
    expect(flow.get().fields[key]).toBeUndefined();
  });
});
