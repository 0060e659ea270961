import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { type LoaderFunctionArgs } from 'react-router';
import type { Session, StartFlowResponse } from '@/lib/api/types';
import { flow } from '@/stores/flow';
import { DEMO_LENDERS } from '@/test/catalogue';
import { decision } from '@/test/fixtures';
import { json, routes as serve } from '@/test/fetch';
import { safeAppPath } from '@/features/start/EntryPages';
import { providersRoute } from './lenderRoutes';
import { openApp } from './testing';

/*
 * The ways into the journey from outside it (docs/behaviour.md, "Routes"):
 * a lender's redirect and breakout back to us, and a named test case
 * started from its address — through the real route table.
 */

const session = { webSessionId: 'session-1', env: 'test', groupId: 'g', properties: { applyMode: 'prequalify' } } as Session;
const started = {
  session: { ...session, dynamicProviderKey: 'synchrony_standard', experienceType: 'in_store', properties: { applyMode: 'prequalify' } },
  application: { purchaseAmountCents: 320_000, primary: {} },
  location: { name: 'Maple Street Dental', state: 'OR', groupId: 'g' },
} as StartFlowResponse;

const catalogue = Object.fromEntries(DEMO_LENDERS.map((p) => [p.providerKey, p]));

beforeEach(() => {
  flow.reset();
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('a lender’s redirect back to us', () => {
  it('only ever leads to a screen of this app', () => {
    expect(safeAppPath(encodeURIComponent('/providers/snap_standard/resume/from-payment-plans'))).toBe(
      '/providers/snap_standard/resume/from-payment-plans',
    );
    expect(safeAppPath('%2Ffinish%2Fcompleted%3Fx%3D1')).toBe('/finish/completed?x=1');
    for (const bad of [
      '%2F%2Fevil.example%2Fx',
      'https%3A%2F%2Fevil.example',
      '%2F%5Cevil.example',
      'javascript%3Aalert(1)',
      '%E0%A4%A',
      '%2Fapi%2Fv1%2Flog',
      'paymentPlans',
    ]) {
      expect(safeAppPath(bad)).toBeNull();
    }
  });

  it('continues to the screen it names, through that screen’s own guard', async () => {
    flow.set({ session, providerKey: 'synchrony_standard', lenders: catalogue });
    serve({ '/log': [new Response(null, { status: 204 })] });
    const router = openApp(`/redirect/${encodeURIComponent('/providers/synchrony_standard/declined')}`);
    await waitFor(() => expect(router.state.location.pathname).toBe('/providers/synchrony_standard/declined'));
  });

  it('without a session the guard of the screen sends the patient to the start screen', async () => {
    serve({});
    const router = openApp(`/redirect/${encodeURIComponent('/providers/synchrony_standard/paymentPlans')}`);
    await waitFor(() => expect(router.state.location.pathname).toBe('/idle'));
  });

  it('refuses another site, out loud', async () => {
    serve({});
    openApp(`/redirect/${encodeURIComponent('//evil.example/steal')}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'We can’t follow this link' })).toBeTruthy();
  });
});

describe('back from a lender’s own page (breakout)', () => {
  it('asks the lender where the application stands and goes on from its answer', async () => {
    flow.set({ session, providerKey: 'synchrony_standard', primaryLenderKey: 'synchrony_standard', lenders: catalogue });
    flow.response('synchrony_standard', {
      preAuth: { ...decision('synchrony_standard', 'pending', { lenderApplicationId: 'LA-77' }), operation: 'prequalify' },
    });
    const calls = serve({
      '/providers/synchrony_standard/application-status': [
        json({
          decision: {
            ...decision('synchrony_standard', 'prequalified', { approvedAmountCents: 400_000, lenderApplicationId: 'LA-77' }),
            operation: 'prequalify',
          },
        }),
      ],
    });
    const router = openApp('/breakout/synchrony_standard/LA-77');
    await waitFor(() => expect(router.state.location.pathname).toBe('/providers/synchrony_standard/prequalified'));
    expect(calls.filter((c) => c.path.endsWith('/application-status'))).toHaveLength(1);
    expect(flow.get().responses.synchrony_standard?.preAuth?.approvedAmountCents).toBe(400_000);
  });

  it('on another device (or for another application) asks nothing and says where to carry on', async () => {
    const calls = serve({});
    openApp('/breakout/synchrony_standard/LA-77');
    expect(await screen.findByRole('heading', { level: 1, name: 'Continue where you started' })).toBeTruthy();
    expect(calls).toEqual([]);
  });
});

describe('a named test case from its address', () => {
  it('starts a session at the demo office, chooses the test case and opens the first lender’s form', async () => {
    const calls = serve({
      '/test-cases': [json({ testCases: [{ id: 'existing-account', name: 'Existing account', description: 'd' }], entityKey: '4815162342000001' })],
      '/flow/start/entity-keys/4815162342000001': [json(started)],
      '/test-cases/apply/existing-account': [json({ testCase: 'existing-account' })],
      '/apply/start/providers/synchrony_standard': [
        json({ providerKey: 'synchrony_standard', applyMode: 'prequalify', fields: [], fieldGroupRules: [], lenders: DEMO_LENDERS }),
      ],
      '/log': [new Response(null, { status: 204 })],
    });
    const router = openApp('/test-cases/existing-account');
    await waitFor(() => expect(router.state.location.pathname).toBe('/providers/synchrony_standard/modes/prequalify/application'));
    const order = calls.map((c) => c.path).filter((p) => p !== '/log' && !p.startsWith('/apply/start'));
    expect(order.slice(0, 3)).toEqual(['/test-cases', '/flow/start/entity-keys/4815162342000001', '/test-cases/apply/existing-account']);
  });

  it('is refused on a production server, starting nothing', async () => {
    const calls = serve({ '/test-cases': [json({ code: 'forbidden', message: 'Test cases are not available in production.' }, 403)] });
    openApp('/test-cases/existing-account');
    expect(await screen.findByRole('heading', { level: 1, name: 'Test cases are not available here' })).toBeTruthy();
    expect(calls.map((c) => c.path)).toEqual(['/test-cases']);
    expect(flow.get().session).toBeNull();
  });

  it('an unknown id lists the ones there are', async () => {
    serve({ '/test-cases': [json({ testCases: [{ id: 'all-decline', name: 'Every lender declines', description: 'The waterfall runs out.' }] })] });
    openApp('/test-cases/nope');
    expect(await screen.findByRole('heading', { level: 1, name: 'Unknown test case' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Every lender declines' }).getAttribute('href')).toBe('/test-cases/all-decline');
  });
});

describe('redirect routes of the table', () => {
  /** loaderOf finds a lender route's loader in the real table. */
  function loaderOf(path: string): (args: LoaderFunctionArgs) => unknown {
    const lenders = providersRoute;
    const route = (lenders.children ?? []).find((r) => r.path === path);
    return route!.loader as (args: LoaderFunctionArgs) => unknown;
  }

  it('keep the lender the patient agreed to where the route says switching is off (prequalifyAgreeNext)', () => {
    flow.set({ session, providerKey: 'synchrony_standard' });
    const args = { params: { providerKey: 'fortiva_standard' }, request: new Request('http://x/'), context: {} } as unknown as LoaderFunctionArgs;
    const res = loaderOf('prequalifyAgreeNext')(args) as Response;
    expect(res.status).toBe(302);
    expect(flow.get().providerKey).toBe('synchrony_standard');
    // Any other redirect route switches as usual.
    loaderOf('patchSuccessful')(args);
    expect(flow.get().providerKey).toBe('fortiva_standard');
  });
});

describe('the accessibility statement', () => {
  it('opens from the footer on any screen, names the standard, and Back returns', async () => {
    serve({});
    const router = openApp('/idle');
    await userEvent.click(await screen.findByRole('link', { name: 'Accessibility' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Accessibility' })).toBeTruthy();
    expect(screen.getByText(/WCAG\) 2\.2 at level AA/)).toBeTruthy();
    await userEvent.click(screen.getAllByRole('button', { name: 'Back' })[0]!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/idle'));
  });
});
