import { api, lenderPath } from '@/lib/api/client';
import type { ApplyMode, ConsentInput, CurrentLocation, DisclosureKind, Document, WaterfallStep } from '@/lib/api/types';
import { once } from '@/lib/once';
import { flow } from '@/stores/flow';
import { consentTargets, kindFor, type ConsentTarget } from './chain';

/**
 * The consent documents and the patient's consents to them, shared by the
 * soft-pull screen (application), the hard-pull and e-sign screens (signing)
 * and the submit (results) (docs/behaviour.md, "Consents").
 */

/** One document a consent screen shows, with the lender and kind it authorises. */
export interface ConsentItem {
  target: ConsentTarget;
  doc: Document;
}

/** loadWaterfall gets the location's lender waterfall once (GET /locations/current). */
export async function loadWaterfall(): Promise<WaterfallStep[]> {
  const have = flow.get().waterfall;
  if (have) return have;
  return once('waterfall', async () => {
    const res = await api.get<CurrentLocation>('/locations/current', { noErrorHandling: true });
    const waterfall = res?.waterfall ?? [];
    flow.set({ waterfall });
    return waterfall;
  });
}

/**
 * loadConsentDocuments answers what one consent screen must show: the
 * current lender's authorisation and that of every lender the app may
 * submit to on its own after it, each with its document. If the waterfall
 * cannot be read, only the current lender's is shown (the cascade then
 * stops at the next lender and asks the patient there).
 */
export async function loadConsentDocuments(providerKey: string, mode: ApplyMode): Promise<ConsentItem[]> {
  const waterfall = await loadWaterfall().catch(() => [] as WaterfallStep[]);
  const targets = consentTargets(waterfall, providerKey, mode);
  const docs = await Promise.all(
    targets.map((t, i) =>
      loadDisclosure(t.providerKey, t.kind, { handled: false }).then(
        (doc) => doc,
        (e: unknown) => {
          // The current lender's document is required; a later lender's is not (the cascade stops there instead).
          if (i === 0) throw e;
          return null;
        },
      ),
    ),
  );
  const out: ConsentItem[] = [];
  targets.forEach((target, i) => {
    const doc = docs[i];
    if (doc) out.push({ target, doc });
  });
  return out;
}

/** loadDisclosure gets the document a consent must name (GET disclosures?kind=). */
export async function loadDisclosure(providerKey: string, kind: DisclosureKind, opts: { handled?: boolean } = {}): Promise<Document> {
  const key = `${providerKey}:${kind}`;
  const have = flow.get().documents[key];
  if (have) return have;
  return once(`doc:${key}`, async () => {
    const doc = await api.get<Document>(lenderPath(providerKey, 'disclosures'), { query: { kind }, noErrorHandling: opts.handled === false });
    flow.set({ documents: { ...flow.get().documents, [key]: doc } });
    return doc;
  });
}

export function consentOf(doc: Document): ConsentInput {
  return { documentId: doc.id, documentVersion: doc.version, documentSha256: doc.sha256, agreed: true };
}

/** agree records that the patient agreed to the document they were shown. */
export function agree(providerKey: string, kind: DisclosureKind, doc: Document): void {
  flow.set({ consents: { ...flow.get().consents, [`${providerKey}:${kind}`]: consentOf(doc) } });
}

/** agreeToAll records one consent per document shown, each naming exactly that document. */
export function agreeToAll(items: readonly ConsentItem[]): void {
  for (const { target, doc } of items) agree(target.providerKey, target.kind, doc);
}

/**
 * consentFor answers the consent the patient gave for a submit: the one
 * recorded when they agreed to the document they were shown. There is never
 * a consent given on the patient's behalf; without one the answer is null.
 */
export function consentFor(providerKey: string, mode: ApplyMode): ConsentInput | null {
  const key = `${providerKey}:${kindFor(mode)}`;
  const s = flow.get();
  const given = s.consents[key];
  const shown = s.documents[key];
  // The consent must name exactly the document that was shown.
  if (!given || !shown || given.documentId !== shown.id || given.documentVersion !== shown.version || given.documentSha256 !== shown.sha256)
    return null;
  return given;
}

/** forgetConsent drops a lender's document and consent, so its screen fetches and shows the current one. */
export function forgetConsent(providerKey: string, mode: ApplyMode): void {
  const key = `${providerKey}:${kindFor(mode)}`;
  const { [key]: _doc, ...documents } = flow.get().documents;
  const { [key]: _consent, ...consents } = flow.get().consents;
  void _doc;
  void _consent;
  flow.set({ documents, consents });
}
