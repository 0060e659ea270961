import { beforeEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { CurrentLocation } from '@/lib/api/types';
import { flow } from '@/stores/flow';
import { lender, withCatalogue } from '@/test/catalogue';
import { CompletePage } from './CompletePage';

function show() {
  render(<RouterProvider router={createMemoryRouter([{ path: '/', Component: CompletePage }])} />);
}

describe('the complete screen', () => {
  beforeEach(() => {
    flow.reset();
    withCatalogue([lender('snap_standard', 'Snap', { fundingName: 'Snap lease' })]);
    flow.set({ providerKey: 'snap_standard', location: { name: 'Desert Bloom Dental' } as CurrentLocation });
  });

  it('says what pays the office, by the lender’s funding name, and in the office asks for the device back', () => {
    flow.set({ experienceType: 'in_store' });
    show();
    expect(screen.getByText('Your Snap lease pays Desert Bloom Dental for your treatment.')).toBeTruthy();
    expect(screen.getByText(/Please hand the device back to the office manager\./)).toBeTruthy();
  });

  it('at home, never asks to hand a device back', () => {
    flow.set({ experienceType: 'at_home' });
    show();
    expect(screen.queryByText(/hand the device back/)).toBeNull();
    expect(screen.getByText(/You can close this page once you press Finish\./)).toBeTruthy();
  });
});
