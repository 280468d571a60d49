import { describe, expect, it } from 'vitest';

import { credentialStatus, hasActive } from './credential-status.ts';
import type { Credential } from './gateway-credentials-api.ts';

const NOW = new Date('2026-11-23T15:30:00Z');

const credential = (overrides: Partial<Credential> = {}): Credential => ({
  id: '6b031854dbdeac91e41b6501',
  kind: 'secret',
  username: 'A1B2C3D4E5',
  fingerprint: null,
  createdAt: '2026-11-02T08:00:00Z',
  expiresAt: null,
  revokedAt: null,
  ...overrides,
});

describe("a gateway credential's status", () => {
  it('is active without revocation, and without expiry or before it', () => {
    expect(credentialStatus(credential(), NOW)).toBe('active');
    expect(credentialStatus(credential({ expiresAt: '2026-11-23T15:30:01Z' }), NOW)).toBe('active');
  });

  it('is expired from its expiry on', () => {
    expect(credentialStatus(credential({ expiresAt: '2026-11-23T15:30:00Z' }), NOW)).toBe('expired');
    expect(credentialStatus(credential({ expiresAt: '2025-01-01T00:00:00Z' }), NOW)).toBe('expired');
  });

  it('is revoked once revoked, expired or not', () => {
    expect(credentialStatus(credential({ revokedAt: '2026-11-20T09:00:00Z' }), NOW)).toBe('revoked');
    expect(credentialStatus(credential({ revokedAt: '2026-11-20T09:00:00Z', expiresAt: '2025-01-01T00:00:00Z' }), NOW)).toBe('revoked');
  });

  it('makes a kind rotate only when one of that kind is active', () => {
    const list = [
      credential({ kind: 'secret', revokedAt: '2026-11-20T09:00:00Z' }),
      credential({ kind: 'certificate', fingerprint: 'sha256:ab12', expiresAt: '2027-11-02T08:00:00Z' }),
    ];
    expect(hasActive(list, 'secret', NOW)).toBe(false);
    expect(hasActive(list, 'certificate', NOW)).toBe(true);
    expect(hasActive([], 'certificate', NOW)).toBe(false);
  });
});
