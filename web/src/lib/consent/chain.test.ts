import { describe, expect, it } from 'vitest';
import type { WaterfallStep } from '@/lib/api/types';
import { autoSubmitChain, consentTargets, joinNames, kindFor } from './chain';

const step = (providerKey: string, autoSubmit: boolean, applyMode: WaterfallStep['applyMode'] = 'prequalify'): WaterfallStep => ({
  providerKey,
  role: 'secondary' as WaterfallStep['role'],
  applyMode,
  autoSubmit,
});

// The demo office: Synchrony asks the patient, Fortiva and Snap follow on their own, Proceed asks again.
const brightSmile = [step('synchrony_standard', false), step('fortiva_standard', true), step('snap_standard', true), step('proceed_standard', false)];

describe('autoSubmitChain', () => {
  it('answers the lenders after the current one while autoSubmit is true', () => {
    expect(autoSubmitChain(brightSmile, 'synchrony_standard').map((s) => s.providerKey)).toEqual(['fortiva_standard', 'snap_standard']);
  });

  it('starts after the current lender wherever it sits', () => {
    expect(autoSubmitChain(brightSmile, 'fortiva_standard').map((s) => s.providerKey)).toEqual(['snap_standard']);
    expect(autoSubmitChain(brightSmile, 'snap_standard')).toEqual([]);
  });

  it('stops at the first step without autoSubmit, even if later ones have it', () => {
    const w = [step('a', false), step('b', true), step('c', false), step('d', true)];
    expect(autoSubmitChain(w, 'a').map((s) => s.providerKey)).toEqual(['b']);
    expect(autoSubmitChain(w, 'c').map((s) => s.providerKey)).toEqual(['d']);
  });

  it('answers nothing for the last lender, an unknown lender or an empty waterfall', () => {
    expect(autoSubmitChain(brightSmile, 'proceed_standard')).toEqual([]);
    expect(autoSubmitChain(brightSmile, 'nobody')).toEqual([]);
    expect(autoSubmitChain([], 'synchrony_standard')).toEqual([]);
  });

  it('does not loop back to a lender already in the chain', () => {
    const w = [step('a', false), step('b', true), step('a', true), step('c', true)];
    expect(autoSubmitChain(w, 'a').map((s) => s.providerKey)).toEqual(['b']);
  });
});

describe('consentTargets', () => {
  it('lists the current lender first, then the auto-submit chain, all soft pulls', () => {
    expect(consentTargets(brightSmile, 'synchrony_standard', 'prequalify')).toEqual([
      { providerKey: 'synchrony_standard', applyMode: 'prequalify', kind: 'prequalification' },
      { providerKey: 'fortiva_standard', applyMode: 'prequalify', kind: 'prequalification' },
      { providerKey: 'snap_standard', applyMode: 'prequalify', kind: 'prequalification' },
    ]);
  });

  it('shows only the current lender when nothing follows on its own', () => {
    expect(consentTargets(brightSmile, 'proceed_standard', 'prequalify').map((t) => t.providerKey)).toEqual(['proceed_standard']);
    expect(consentTargets([], 'x', 'prequalify').map((t) => t.providerKey)).toEqual(['x']);
  });

  it('keeps hard pulls with hard pulls: a full-mode step ends a soft-pull chain', () => {
    const w = [step('a', false), step('b', true, 'prescreen'), step('c', true, 'full'), step('d', true)];
    expect(consentTargets(w, 'a', 'prequalify').map((t) => `${t.providerKey}:${t.kind}`)).toEqual(['a:prequalification', 'b:prequalification']);
    const full = [step('a', false, 'full'), step('b', true, 'full'), step('c', true, 'prequalify')];
    expect(consentTargets(full, 'a', 'full').map((t) => `${t.providerKey}:${t.kind}`)).toEqual(['a:application', 'b:application']);
  });

  it('maps modes to disclosure kinds', () => {
    expect(kindFor('full')).toBe('application');
    expect(kindFor('prequalify')).toBe('prequalification');
    expect(kindFor('prescreen')).toBe('prequalification');
  });
});

describe('joinNames', () => {
  it('lists names the way people say them', () => {
    expect(joinNames([])).toBe('');
    expect(joinNames(['Synchrony'])).toBe('Synchrony');
    expect(joinNames(['Synchrony', 'Fortiva'])).toBe('Synchrony and Fortiva');
    expect(joinNames(['Synchrony', 'Fortiva', 'Snap', 'Proceed'])).toBe('Synchrony, Fortiva, Snap and Proceed');
  });
});

describe('joinNames in Spanish', () => {
  it('joins with the Spanish "y"', async () => {
    const { setLanguage } = await import('@/lib/i18n');
    await setLanguage('es');
    expect(joinNames(['Synchrony', 'Fortiva', 'Snap'])).toBe('Synchrony, Fortiva y Snap');
  });
});
