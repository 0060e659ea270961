import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { FieldDefinition, Session, WaterfallStep } from '@/lib/api/types';
import { setLanguage } from '@/lib/i18n';
import { flow } from '@/stores/flow';
import { lender, withCatalogue } from '@/test/catalogue';
import { textDocument } from '@/test/fixtures';
import { ApplicationForm } from './ApplicationForm';
import { ApplicationPage } from './ApplicationPage';
import { PrequalifyAgreePage } from './PrequalifyAgreePage';

/*
 * The application's screens in Spanish (docs/languages.md): our own words
 * come from the catalogues, the lenders' names and the server's field labels
 * stay as sent, and money keeps the US format. The soft-pull paragraph is
 * also pinned in English, word for word, for one, two and three lenders.
 */

const LENDERS = ['synchrony_standard', 'fortiva_standard', 'snap_standard'];

const doc = (providerKey: string) =>
  textDocument(`${providerKey}-soft-pull`, 'Authorization to check your credit', {
    sha256: `sha-${providerKey}`,
    content: `${providerKey} may obtain your credit report.`,
    language: 'es',
  });

/** A session at Synchrony whose quick check may go on, on its own, to the next `more` lenders. */
function session(more: number) {
  const waterfall: WaterfallStep[] = LENDERS.map((providerKey, i) => ({
    providerKey,
    role: i ? 'secondary' : 'primary',
    applyMode: 'prequalify',
    autoSubmit: i > 0 && i <= more,
  }));
  flow.set({
    session: { webSessionId: 's1' } as Session,
    providerKey: LENDERS[0],
    applyMode: 'prequalify',
    purchaseAmountCents: 450_000,
    waterfall,
    documents: Object.fromEntries(LENDERS.map((k) => [`${k}:prequalification`, doc(k)])),
  });
  withCatalogue();
}

function renderAt(page: React.ReactElement) {
  const router = createMemoryRouter([{ path: '/providers/:providerKey/:page', element: page }], {
    initialEntries: [`/providers/${LENDERS[0]}/page`],
  });
  render(<RouterProvider router={router} />);
}

/** The paragraph that says who checks the patient's credit, and how. */
const softPull = async () => (await screen.findByText(/will look at your credit report|revisará su informe de crédito/)).textContent;

beforeEach(() => {
  flow.reset();
});

describe('PrequalifyAgreePage', () => {
  it('says in English who checks, for one lender', async () => {
    session(0);
    renderAt(<PrequalifyAgreePage />);
    expect(await softPull()).toBe(
      'Synchrony will look at your credit report to see if you prequalify. This is a soft credit check. It does not affect your credit score.',
    );
    expect(screen.getByText(/We share your details/).textContent).toBe(
      'We share your details only with the lender named here. Our privacy notice says how your information is used and kept safe.',
    );
    expect(screen.getByRole('link', { name: 'privacy notice' }).getAttribute('href')).toBe('/docs/privacyNotice');
  });

  it('names each lender after the first in English', async () => {
    session(1);
    renderAt(<PrequalifyAgreePage />);
    await screen.findByRole('heading', { level: 2, name: 'Fortiva' });
    expect(await softPull()).toBe(
      'Synchrony will look at your credit report to see if you prequalify. If Synchrony can’t approve you, we will ask Fortiva for you. ' +
        'Fortiva will look at your credit report too. These are soft credit checks. They do not affect your credit score.',
    );
  });

  it('lists several lenders in the order they are asked in English, a lease among them asking no credit check', async () => {
    session(2);
    renderAt(<PrequalifyAgreePage />);
    await screen.findByRole('heading', { level: 2, name: 'Snap' });
    expect(await softPull()).toBe(
      'Synchrony will look at your credit report to see if you prequalify. If Synchrony can’t approve you, we will ask Fortiva, then Snap, for you. ' +
        'Fortiva will look at your credit report too. Snap offers a lease, not credit, and looks only at the details you give. ' +
        'These are soft credit checks. They do not affect your credit score.',
    );
    // Before: "Each of them will look at your credit report too", Snap's lease included, and a soft credit check "by Synchrony, Fortiva and Snap".
    expect(
      screen.getByRole('checkbox', {
        name: 'I have read these. I agree that Snap may look at the details I give, and to a soft credit check by Synchrony and Fortiva.',
      }),
    ).toBeTruthy();
  });

  it('speaks Spanish, lenders’ names untranslated, the names listed the Spanish way', async () => {
    await setLanguage('es');
    session(2);
    renderAt(<PrequalifyAgreePage />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Antes de revisar sus opciones' })).toBeTruthy();
    await screen.findByRole('heading', { level: 2, name: 'Snap' });
    expect(await softPull()).toBe(
      'Synchrony revisará su informe de crédito para ver si usted precalifica. Si Synchrony no puede aprobar su solicitud, se la enviaremos a Fortiva, luego a Snap, por usted. ' +
        'Fortiva también revisará su informe de crédito. Snap ofrece un arrendamiento, no un crédito, y solo revisa los datos que usted da. ' +
        'Estas son consultas de crédito suaves. No afectan su puntaje de crédito.',
    );
    expect(screen.getByRole('link', { name: 'aviso de privacidad' })).toBeTruthy();
    const box = screen.getByRole('checkbox', {
      name: 'Leí estos documentos. Acepto que Snap revise los datos que doy, y una consulta de crédito suave por parte de Synchrony y Fortiva.',
    });
    await userEvent.click(screen.getByRole('button', { name: 'Ver mis opciones' }));
    expect(await screen.findByText('Marque la casilla para continuar')).toBeTruthy();
    expect((box as HTMLInputElement).checked).toBe(false);
  });
});

describe('PrequalifyAgreePage, a lease-to-own lender first (Snap)', () => {
  /** Desert Bloom Dental (demo/offices.yaml): Snap, then AFF on its own. */
  function snapFirst() {
    flow.set({
      session: { webSessionId: 's1' } as Session,
      providerKey: 'snap_standard',
      applyMode: 'prequalify',
      waterfall: [
        { providerKey: 'snap_standard', role: 'primary', applyMode: 'prequalify', autoSubmit: false },
        { providerKey: 'aff_standard', role: 'secondary', applyMode: 'prequalify', autoSubmit: true },
      ],
      documents: Object.fromEntries(['snap_standard', 'aff_standard'].map((k) => [`${k}:prequalification`, doc(k)])),
    });
    withCatalogue([lender('snap_standard', 'Snap', { kind: 'lease_to_own' }), lender('aff_standard', 'AFF', { kind: 'installment_loan' })]);
  }

  it('asks no credit check of the lease, only of the credit lender after it', async () => {
    snapFirst();
    const router = createMemoryRouter([{ path: '/providers/:providerKey/:page', element: <PrequalifyAgreePage /> }], {
      initialEntries: ['/providers/snap_standard/page'],
    });
    render(<RouterProvider router={router} />);
    await screen.findByRole('heading', { level: 2, name: 'AFF' });
    // Before: "Snap will look at your credit report to see if you prequalify", and a soft credit check "by Snap and AFF".
    expect(screen.getByText(/offers a lease, not credit/).textContent).toBe(
      'Snap offers a lease, not credit, and needs no credit history: it looks at the details you give to see what it can offer. ' +
        'If Snap can’t approve you, we will ask AFF for you. AFF will look at your credit report. This is a soft credit check. It does not affect your credit score.',
    );
    expect(
      screen.getByRole('checkbox', {
        name: 'I have read these. I agree that Snap may look at the details I give, and to a soft credit check by AFF.',
      }),
    ).toBeTruthy();
    expect(screen.queryByText(/Snap will look at your credit report/)).toBeNull();
  });
});

const fields: FieldDefinition[] = [
  { id: 'firstName', path: 'firstName', name: 'firstName', label: 'Nombre', type: 'text', group: 'personal', rules: { required: {} } },
  { id: 'ssn', path: 'ssn', name: 'ssn', label: 'Número de Seguro Social', type: 'ssn', group: 'personal', rules: { required: {} } },
  { id: 'mobilePhone', path: 'mobilePhone', name: 'mobilePhone', label: 'Teléfono', type: 'dynamicPhone', group: 'contact', rules: {} },
];

describe('ApplicationForm and ApplicationPage in Spanish', () => {
  it('shows the form’s own words in Spanish, and the server’s labels as sent', async () => {
    await setLanguage('es');
    const onSubmit = vi.fn();
    render(<ApplicationForm applicant="primary" fields={fields} defaults={{}} showJointToggle onSubmit={onSubmit} />);
    expect(screen.getByText(/Los campos marcados con/).textContent).toBe('Los campos marcados con *una estrella son obligatorios.');
    expect(screen.getByRole('group', { name: 'Sobre usted' })).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Cómo comunicarnos con usted' })).toBeTruthy();
    expect(screen.getByText('9 dígitos, por ejemplo 123-45-6789')).toBeTruthy();
    expect(screen.getByRole('button', { name: /^Mostrar\s*número de Seguro Social$/ })).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'Teléfono celular' })).toBeTruthy();
    expect(screen.getByText('(opcional)', { exact: false })).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(await screen.findByRole('heading', { name: 'Hay un problema' })).toBeTruthy();

    await userEvent.type(screen.getByLabelText(/Nombre/), 'Ana');
    await userEvent.type(screen.getByLabelText(/Número de Seguro Social/), '123456789');
    await userEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(await screen.findByRole('heading', { name: 'Revise sus datos' })).toBeTruthy();
    expect(screen.getByText('Cosolicitante').nextElementSibling?.textContent).toBe('No');
    await userEvent.click(screen.getByRole('button', { name: 'Confirmar y continuar' }));
    expect(onSubmit).toHaveBeenCalledOnce();
  });

  it('says the server’s English labels, hints and its own messages in Spanish once the patient switches', async () => {
    const english: FieldDefinition[] = [
      { id: 'firstName', path: 'firstName', name: 'firstName', label: 'First name', type: 'text', group: 'personal', rules: { required: {} } },
      {
        id: 'dateOfBirth',
        path: 'dateOfBirth',
        name: 'dateOfBirth',
        label: 'Date of birth',
        hint: 'For example, 01/31/1980',
        type: 'date',
        group: 'personal',
        rules: { required: {}, minAge: { age: 18 } },
      },
    ];
    render(<ApplicationForm applicant="primary" fields={english} defaults={{}} onSubmit={vi.fn()} />);
    expect(screen.getByLabelText(/^First name/)).toBeTruthy();
    await setLanguage('es');
    expect(await screen.findByLabelText(/^Nombre/)).toBeTruthy();
    expect(screen.getByText('Por ejemplo, 01/31/1980')).toBeTruthy();
    await userEvent.type(screen.getByLabelText(/^Fecha de nacimiento/), '01/01/2015');
    await userEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(await screen.findByRole('link', { name: 'Nombre: Campo obligatorio' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Fecha de nacimiento: Debe tener al menos 18 años' })).toBeTruthy();
  });

  it('says the treatment amount in US dollars and the lender by its name', async () => {
    await setLanguage('es');
    session(0);
    flow.fieldsLoaded('synchrony_standard:prequalify', {
      providerKey: LENDERS[0]!,
      applyMode: 'prequalify',
      fields,
      fieldGroupRules: [],
      providers: [],
    });
    renderAt(<ApplicationPage />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Cuéntenos sobre usted' })).toBeTruthy();
    expect(screen.getByText('Está consultando financiamiento para un tratamiento de $4,500.00 con Synchrony.')).toBeTruthy();
  });
});
