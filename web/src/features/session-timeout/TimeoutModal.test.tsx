import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setLanguage } from '@/lib/i18n';
import { ui } from '@/stores/ui';
import TimeoutModal from './TimeoutModal';

/* The "are you still there?" question in both languages, with the countdown's unit agreeing with the number. */

beforeEach(() => {
  ui.set({ timeoutRemainingMs: 30_000 });
});

describe('TimeoutModal', () => {
  it('asks in English', () => {
    render(<TimeoutModal onYes={vi.fn()} onNo={vi.fn()} />);
    expect(screen.getByRole('heading', { name: 'Are you still there?' })).toBeTruthy();
    expect(screen.getByText('seconds left').parentElement?.textContent).toBe('30 seconds left');
  });

  it('asks in Spanish, and counts down to one second in the singular', async () => {
    await setLanguage('es');
    const onYes = vi.fn();
    render(<TimeoutModal onYes={onYes} onNo={vi.fn()} />);
    expect(screen.getByRole('heading', { name: '¿Sigue ahí?' })).toBeTruthy();
    expect(screen.getByText('Para proteger su privacidad, esta solicitud se cerrará pronto si no hay actividad.')).toBeTruthy();
    expect(screen.getByText('segundos restantes').parentElement?.textContent).toBe('30 segundos restantes');
    ui.set({ timeoutRemainingMs: 900 });
    expect(await screen.findByText('segundo restante')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Sí, aquí sigo' }));
    expect(onYes).toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'No, ciérrela' })).toBeTruthy();
  });
});
