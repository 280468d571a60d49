import { describe, expect, it } from 'vitest';

import { fakeToken, signedInSession } from '../testing/tokens.ts';
import { sessionSlice, tokenMustChangePassword, tokenRefreshed, tokenRole } from './session.ts';

describe('the access token read by the session', () => {
  it('gives its role and whether its password must be changed first', () => {
    expect(tokenRole(fakeToken(900, { role: 'operator' }))).toBe('operator');
    expect(tokenRole(fakeToken())).toBeNull();
    expect(tokenRole('not-a-jwt')).toBeNull();
    expect(tokenMustChangePassword(fakeToken(900, { chg: true }))).toBe(true);
    expect([fakeToken(), 'not-a-jwt', null].map(tokenMustChangePassword)).toEqual([false, false, false]);
  });

  it('takes the role of a refreshed token, and keeps its own when the token names none', () => {
    const demoted = fakeToken(900, { role: 'viewer' });
    const after = sessionSlice.reducer(signedInSession(), tokenRefreshed(demoted));
    expect(after).toMatchObject({ token: demoted, role: 'viewer', username: 'alice' });
    expect(localStorage.getItem('role')).toBe('viewer');

    const plain = fakeToken();
    expect(sessionSlice.reducer(signedInSession(), tokenRefreshed(plain))).toMatchObject({ token: plain, role: 'admin' });
  });
});
