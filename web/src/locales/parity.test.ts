import { describe, expect, it } from 'vitest';
import en from './en';
import enApplicationFirst from './en/application.first.json';
import enCommonFirst from './en/common.first.json';
import enStartFirst from './en/start.first.json';
import form from './en/form';
import journey from './en/journey';
import shell from './en/shell';
import es from './es';
import esApplicationFirst from './es/application.first.json';
import esCommonFirst from './es/common.first.json';
import esStartFirst from './es/start.first.json';
import { compareCatalogues, flatten } from './parity';

describe('message catalogues', () => {
  it('has every English message in Spanish and the reverse, with the same placeholders and plural forms', () => {
    expect(compareCatalogues(en, es, 'es')).toEqual([]);
  });

  it('has the same files in both languages', () => {
    expect(Object.keys(es).sort()).toEqual(Object.keys(en).sort());
    expect(Object.keys(esApplicationFirst)).toEqual(Object.keys(enApplicationFirst));
    expect(Object.keys(esCommonFirst)).toEqual(Object.keys(enCommonFirst));
    expect(Object.keys(esStartFirst)).toEqual(Object.keys(enStartFirst));
  });

  it('ships the English in three parts that make the whole catalogue, no message in two (en/shell.ts, en/form.ts, en/journey.ts)', () => {
    const parts = [flatten(shell), flatten(form), flatten(journey)];
    const seen = new Map<string, number>();
    parts.forEach((part, i) => part.forEach((_, k) => seen.set(k, seen.has(k) ? -1 : i)));
    expect([...seen].filter(([, i]) => i === -1).map(([k]) => k)).toEqual([]);
    expect(new Map(parts.flatMap((part) => [...part]))).toEqual(flatten(en));
  });

  it('catches a message missing in one language or the other', () => {
    const source = { a: { hello: 'Hello', bye: 'Bye' } };
    expect(compareCatalogues(source, { a: { hello: 'Hola' } }, 'es')).toEqual(['es lacks a.bye']);
    expect(compareCatalogues({ a: { hello: 'Hello' } }, { a: { hello: 'Hola', extra: 'Más' } }, 'es')).toEqual(['en lacks a.extra (only in es)']);
  });

  it('catches a lost placeholder, lost markup and an empty message', () => {
    expect(compareCatalogues({ k: 'Ask {{staff}}' }, { k: 'Pregunte' }, 'es')).toEqual(['es k has no placeholders, en has {{staff}}']);
    expect(compareCatalogues({ k: 'Read <1>this</1>' }, { k: 'Lea esto' }, 'es')).toEqual(['es k has no placeholders, en has <1>']);
    expect(compareCatalogues({ k: 'Hi' }, { k: ' ' }, 'es')).toEqual(['es k is empty']);
  });

  it('asks each language for its own plural forms', () => {
    const source = { n_one: '{{count}} lender', n_other: '{{count}} lenders' };
    expect(compareCatalogues(source, { n_one: '{{count}} prestamista', n_other: '{{count}} prestamistas' }, 'es')).toEqual([
      'es lacks the plural form n_many',
    ]);
    expect(
      compareCatalogues(source, { n_one: '{{count}} prestamista', n_many: '{{count}} de prestamistas', n_other: '{{count}} prestamistas' }, 'es'),
    ).toEqual([]);
  });
});
