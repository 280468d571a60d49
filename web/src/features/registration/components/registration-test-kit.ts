// MSW handlers and form helpers shared by the registration page tests.
import { screen } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import type { ReactElement } from 'react';

import { renderWithProviders } from '../../../testing/render.tsx';

export interface FieldCheck {
  value: string;
  fieldName: string | null;
}

/** `GET /api/proxy/fieldcheck/{value}`: answers with `exists(check)`, or the status. */
export function fieldcheck(checks: FieldCheck[], answer: (check: FieldCheck) => boolean | number = () => false) {
  return http.get('/api/proxy/fieldcheck/:value', ({ params, request }) => {
    const check = { value: String(params.value), fieldName: new URL(request.url).searchParams.get('fieldName') };
    checks.push(check);
    const result = answer(check);
    if (typeof result === 'number') return HttpResponse.json({ code: 'internal', message: 'boom' }, { status: result });
    return HttpResponse.json({ exists: result });
  });
}

/** `POST {path}`: records each body and answers with `reply` after `wait` ms. */
export function creation(path: string, bodies: unknown[], reply: () => Response, wait = 0) {
  return http.post(path, async ({ request }) => {
    bodies.push(await request.json());
    if (wait) await delay(wait);
    return reply();
  });
}

export const created = (id: unknown) => HttpResponse.json({ _id: id }, { status: 201 });
export const failed = (status: number, fields?: Record<string, string>) =>
  HttpResponse.json({ code: 'error', message: 'no', ...(fields ? { fields } : {}) }, { status });

/** Renders a registration page at its own route; returns the user. */
export function renderPage(page: ReactElement, route: string): UserEvent {
  renderWithProviders(page, { route, path: route });
  return userEvent.setup();
}

export const register = () => screen.getByRole('button', { name: 'Register' });

/** Pastes each value into the field labelled by its key, replacing what was there. */
export async function fill(user: UserEvent, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) {
    const input = screen.getByLabelText(label);
    await user.clear(input);
    if (value) await user.paste(value);
  }
}

/** The helper text the input is described by. */
export function describedText(label: string): string {
  const input = screen.getByLabelText(label);
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

/** The machine is shared: form tests get room beyond the default 5 s. */
export const FORM_TEST_TIMEOUT_MS = 20_000;
