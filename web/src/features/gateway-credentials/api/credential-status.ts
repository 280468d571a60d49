// A credential's status as the table shows it: revoked once `revokedAt` is
// set, else expired once `expiresAt` has passed, else active. Only an active
// credential lets the gateway sign in, can be revoked, and makes Issue a
// Rotate.
import type { Credential, CredentialKind } from './gateway-credentials-api.ts';

export type CredentialStatus = 'active' | 'expired' | 'revoked';

export function credentialStatus({ revokedAt, expiresAt }: Pick<Credential, 'revokedAt' | 'expiresAt'>, now: Date): CredentialStatus {
  if (revokedAt !== null) return 'revoked';
  return expiresAt !== null && Date.parse(expiresAt) <= now.getTime() ? 'expired' : 'active';
}

/** Whether the gateway has an active credential of `kind`: issuing another rotates it. */
export function hasActive(credentials: readonly Credential[], kind: CredentialKind, now: Date): boolean {
  return credentials.some((credential) => credential.kind === kind && credentialStatus(credential, now) === 'active');
}
