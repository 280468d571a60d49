// Unsigned JWT-shaped tokens for unit tests: the client only reads `exp`.
const encode = (value: object) =>
  btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');

export function fakeToken(expiresInSeconds = 900, claims: object = {}): string {
  const exp = Math.floor(Date.now() / 1000) + expiresInSeconds;
  return `${encode({ alg: 'none' })}.${encode({ exp, ...claims })}.sig`;
}

export const signedInSession = (token = fakeToken()) => ({
  token,
  role: 'admin',
  username: 'alice',
  userId: '6b031854dbdeac91e41b6317',
});
