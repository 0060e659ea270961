import { beforeEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { CurrentLocation } from '@/lib/api/types';
import { setLanguage } from '@/lib/i18n';
import { flow } from '@/stores/flow';
import { IdlePage } from './IdlePage';
import { ErrorPage } from './InfoPages';
import { StartPage } from './StartPage';

/*
 * The start screens in Spanish (docs/languages.md), with the office's brand
 * where the sentence names it and the neutral wording where it has none.
 */

function renderAt(path: string, page: React.ReactElement) {
  const router = createMemoryRouter([{ path: '*', element: page }], { initialEntries: [path] });
  render(<RouterProvider router={router} />);
}

beforeEach(() => {
  flow.reset();
});

describe('start screens in Spanish', () => {
  it('the idle screen welcomes in Spanish, and its slides can be browsed', async () => {
    await setLanguage('es');
    renderAt('/idle', <IdlePage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Le damos la bienvenida a Chairside' })).toBeTruthy();
    expect(screen.getByText('Para empezar, escanee el código QR que le da el consultorio dental o abra el enlace que le enviaron.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Vea sus opciones en minutos' })).toBeTruthy();
    expect(screen.getByRole('group', { name: '1 de 3' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Mostrar la diapositiva 3: Firme y listo' }));
    expect(screen.getByRole('heading', { level: 2, name: 'Firme y listo' })).toBeTruthy();
  });

  it('follows a switch of language on the screen shown', async () => {
    renderAt('/idle', <IdlePage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome to Chairside' })).toBeTruthy();
    await setLanguage('es');
    expect(await screen.findByRole('heading', { level: 1, name: 'Le damos la bienvenida a Chairside' })).toBeTruthy();
  });

  it('names the office by its brand', async () => {
    await setLanguage('es');
    flow.set({ location: { brandName: 'Maple Street Dental' } as CurrentLocation });
    renderAt('/start', <StartPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Comencemos' })).toBeTruthy();
    expect(
      screen.getByText('Escanee con la cámara de su teléfono el código QR que le da Maple Street Dental, o abra el enlace que le enviaron.'),
    ).toBeTruthy();
  });

  it('the error page explains the code and gives the reference to quote', async () => {
    await setLanguage('es');
    renderAt('/error?code=rate_limited&requestId=req-42', <ErrorPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Algo salió mal' })).toBeTruthy();
    expect(
      screen.getByText(
        'Hubo demasiadas solicitudes en poco tiempo. Espere un minuto y vuelva a intentarlo. Si vuelve a pasar, consulte con el encargado de la oficina.',
      ),
    ).toBeTruthy();
    expect(screen.getByText('req-42').tagName).toBe('STRONG');
    expect(screen.getByText('req-42').parentElement?.textContent).toBe('Número de referencia para el encargado de la oficina: req-42');
    expect(screen.getByRole('link', { name: 'Volver a la pantalla de inicio' })).toBeTruthy();
  });

  it('keeps the English error page word for word', () => {
    renderAt('/error?code=nope&requestId=req-42', <ErrorPage />);
    expect(
      screen.getByText('Something went wrong on our side. Please don’t start a new application — ask the office manager for help.'),
    ).toBeTruthy();
    expect(screen.getByText('req-42').parentElement?.textContent).toBe('Reference to give the office manager: req-42');
  });
});
