import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { Decision, DisclosureKind, Document, Session } from '@/lib/api/types';
import { setLanguage } from '@/lib/i18n';
import { flow } from '@/stores/flow';
import { withCatalogue } from '@/test/catalogue';
import { textDocument } from '@/test/fixtures';

/*
 * Signing in Spanish: our words around the lender's documents (which the
 * server sends as they are), and the typed signature still asks for the name
 * as it is on the application.
 */

const docOf = (id: string, title: string) => textDocument(id, title, { language: 'es' });
const docs: Record<DisclosureKind | 'agreement', Document> = {
  esign: docOf('esign-doc', 'Consentimiento electrónico'),
  agreement: docOf('agreement-doc', 'Contrato de crédito'),
  application: docOf('application-doc', 'Divulgaciones importantes'),
  prequalification: docOf('prequal-doc', 'Términos de precalificación'),
};

vi.mock('./api/esign', async (actual) => ({
  ...(await actual<typeof import('./api/esign')>()),
  esignAndComplete: vi.fn(),
  loadAgreement: async () => docs.agreement,
}));
vi.mock('@/lib/consent/documents', async (actual) => ({
  ...(await actual<typeof import('@/lib/consent/documents')>()),
  loadDisclosure: async (_: string, kind: DisclosureKind) => docs[kind],
}));

const { TermsPage } = await import('./TermsPage');

function renderTerms(): void {
  const router = createMemoryRouter([{ path: '/providers/:providerKey/terms', Component: TermsPage }], {
    initialEntries: ['/providers/synchrony_standard/terms'],
  });
  render(<RouterProvider router={router} />);
}

beforeEach(() => {
  flow.reset();
  flow.set({ session: { webSessionId: 's1' } as Session, providerKey: 'synchrony_standard', applyMode: 'prequalify' });
  withCatalogue();
  const preAuth = { providerKey: 'synchrony_standard', operation: 'prequalify', responseCode: 'prequalified', approvedAmountCents: 500000 };
  flow.response('synchrony_standard', { preAuth: preAuth as unknown as Decision, accepted: true });
});

describe('signing in Spanish', () => {
  it('names each document and box in Spanish, links our page on electronic documents, and asks for the name as on the application', async () => {
    await setLanguage('es');
    renderTerms();
    expect(await screen.findByRole('heading', { level: 1, name: 'Leer y firmar' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Consentimiento para firmar electrónicamente' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Su contrato con Synchrony' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Permiso para una consulta de crédito completa' })).toBeTruthy();
    expect(screen.getByLabelText('Acepto recibir y firmar mis documentos de Synchrony de forma electrónica.')).toBeTruthy();
    const link = screen.getByRole('link', { name: 'documentos y firmas electrónicos' });
    // The lender's page names its lender, so it opens in a new tab too.
    expect(link.getAttribute('href')).toBe('/docs/electronicDisclosuresAndSignatures?providerKey=synchrony_standard');
    expect(screen.getAllByText('consulta de crédito rigurosa', { selector: 'strong' })).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: 'Firmar y finalizar' }));
    expect(screen.getByText('Firme dentro del recuadro. Si se ve muy pequeña, bórrela y firme de nuevo.')).toBeTruthy();

    await userEvent.click(screen.getByLabelText('Escribir mi nombre'));
    expect(screen.getByLabelText('Escriba su nombre completo')).toBeTruthy();
    expect(screen.getByText(/Su nombre y apellido, tal como aparecen en su solicitud\./)).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Su firma aparece aquí mientras escribe.' })).toBeTruthy();
  });
});
