// A webhook secret made in the browser: URL-safe characters (A–Z, a–z, 0–9,
// `-`, `_`) from crypto.getRandomValues. 64 symbols divide 256, so taking a
// byte's low six bits keeps every symbol equally likely.
import { WEBHOOK_SECRET_GENERATED_CHARS } from '../../../lib/constants.ts';

const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

export function generateSecret(length: number = WEBHOOK_SECRET_GENERATED_CHARS): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (byte) => URL_SAFE.charAt(byte % URL_SAFE.length)).join('');
}
