import { beforeEach, describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { flow } from '@/stores/flow';
import { ErrorPage } from './InfoPages';

/*
 * The error page's words for each 429 (docs/behaviour.md, "Routes"): a
 * request rate waits a minute; the credit checks of a person's day, or of a
 * session, are used up and no wait brings them back today.
 */

function errorPage(code: string) {
  const router = createMemoryRouter([{ path: '*', element: <ErrorPage /> }], { initialEntries: [`/error?code=${code}`] });
  render(<RouterProvider router={router} />);
  return document.body.textContent ?? '';
}

beforeEach(() => flow.reset());

describe('the error page after a 429', () => {
  it('too many requests in a short time: wait a minute, then try again', () => {
    const text = errorPage('rate_limited');
    expect(text).toContain('Please wait a minute, then try again.');
    expect(text).not.toMatch(/tomorrow|few minutes/);
  });

  it('the person’s applications for today are used up: come back tomorrow or contact the office, never wait a minute', () => {
    const text = errorPage('daily_limit');
    expect(text).toContain('so we can’t send another one today. Please come back tomorrow, or contact the office manager for help.');
    expect(text).not.toMatch(/wait a (minute|few minutes)/);
  });

  it('the session’s applications are used up: contact the office, never wait', () => {
    const text = errorPage('session_limit');
    expect(text).toContain(
      'This session has sent all the applications it can, so we can’t send another one. Please contact the office manager for help.',
    );
    expect(text).not.toMatch(/wait a (minute|few minutes)/);
  });
});
