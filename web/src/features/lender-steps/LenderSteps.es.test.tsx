import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { setLanguage } from '@/lib/i18n';
import { flow } from '@/stores/flow';
import { lender } from '@/test/catalogue';
import { AdditionalContactPage } from './AdditionalContactPage';
import { contactErrors, spouseErrors } from './rules';
import { WisconsinPage } from './WisconsinPage';

/* The lender's own steps in Spanish: the screens, and the checks made here before the server's, in the same words the server would use. */

const post = vi.hoisted(() => vi.fn());
vi.mock('@/lib/api/client', async (actual) => {
  const real = await actual<typeof import('@/lib/api/client')>();
  return { ...real, api: { ...real.api, post } };
});

function show(page: string, Component: () => React.ReactNode) {
  render(
    <RouterProvider
      router={createMemoryRouter([{ path: `/providers/:providerKey/${page}`, Component }], { initialEntries: [`/providers/aff_standard/${page}`] })}
    />,
  );
}

beforeEach(() => {
  post.mockReset();
  flow.reset();
  flow.set({ providerKey: 'aff_standard', lenders: { aff_standard: lender('aff_standard', 'AFF', { kind: 'installment_loan' }) } });
});

describe('lender steps in Spanish', () => {
  it('Wisconsin: asks in Spanish, and a missing answer is said in Spanish', async () => {
    await setLanguage('es');
    show('checkWisconsin', WisconsinPage);
    expect(screen.getByRole('heading', { level: 1, name: 'Una pregunta para los residentes de Wisconsin' })).toBeTruthy();
    expect(screen.getByText(/AFF podría enviarle a su cónyuge un aviso/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(screen.getByText('Campo obligatorio')).toBeTruthy();
    await userEvent.click(screen.getByLabelText('Sí'));
    expect(screen.getByRole('heading', { name: 'Su cónyuge' })).toBeTruthy();
    expect(screen.getByLabelText('Código postal')).toBeTruthy();
    expect(post).not.toHaveBeenCalled();
  });

  it('additional contact: the relationships and the checks in Spanish', async () => {
    await setLanguage('es');
    show('additionalContactInformation', AdditionalContactPage);
    expect(screen.getByRole('heading', { level: 1, name: 'Otra forma de comunicarnos con usted' })).toBeTruthy();
    expect(screen.getByRole('option', { name: 'Hermano o hermana' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(screen.getAllByText('Campo obligatorio')).toHaveLength(3);
    expect(contactErrors({ name: 'A', relationship: 'friend', phone: '1125550187' })).toEqual({
      name: 'Escriba el nombre completo de esa persona (de 2 a 60 caracteres).',
      phone: 'Escriba el número de teléfono de 10 dígitos de esa persona.',
    });
    const spouse = {
      firstName: 'Sam',
      lastName: 'Ruiz',
      addressLine1: 'PO Box 12',
      addressLine2: '',
      city: 'Madison',
      state: 'WI',
      zipCode: '77002',
    };
    expect(spouseErrors(spouse)).toEqual({
      addressLine1: 'No se aceptan apartados postales (P.O. Box)',
      zipCode: 'El código postal no corresponde al estado',
    });
  });
});
