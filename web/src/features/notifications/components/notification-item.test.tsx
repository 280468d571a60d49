import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { applyLanguage } from '../../../lib/i18n.ts';
import type { Notification } from '../../../lib/types.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { NotificationItem } from './notification-item.tsx';

const base: Notification = { deviceName: 'W-AB12CD34EF', event: 'leak alert', status: 'raised' };

function words(notification: Notification): string {
  renderWithProviders(<NotificationItem notification={notification} onOpen={() => undefined} />);
  const text = screen.getByRole('button').textContent;
  cleanup();
  return text.replace('W-AB12CD34EF', '');
}

afterEach(async () => {
  await applyLanguage('en');
});

describe('a notification worded from its kind', () => {
  it("reads as the spec's 'event — status' in English", () => {
    expect(words({ ...base, kind: 'alert', params: { type: 'leak' } })).toBe('leak alert — raised');
    expect(words({ ...base, event: 'gateway lost', status: 'lost', kind: 'gateway-lost', params: {} })).toBe('gateway lost — lost');
    expect(words({ ...base, event: 'shutdown request', status: 'requested', kind: 'shutdown-request' })).toBe('shutdown request — requested');
  });

  it('reads in French, an unknown alert type kept as sent', async () => {
    await applyLanguage('fr');
    expect(words({ ...base, kind: 'alert', params: { type: 'leak' } })).toBe('alerte fuite — déclenchée');
    expect(words({ ...base, status: 'cleared', kind: 'alert', params: { type: 'door-open' } })).toBe('alerte door-open — terminée');
    expect(words({ ...base, event: 'gateway back', status: 'online', kind: 'gateway-back' })).toBe('passerelle de retour — en ligne');
  });

  it("shows the server's words when it names no kind this client knows", async () => {
    await applyLanguage('fr');
    expect(words(base)).toBe('leak alert — déclenchée');
    expect(words({ ...base, event: 'meteor strike', status: 'impact', kind: 'meteor' })).toBe('meteor strike — impact');
  });
});
