import { describe, expect, it } from 'vitest';

import { generateSecret } from './webhook-secret.ts';

describe('a generated webhook secret', () => {
  it('is 32 URL-safe characters, different each time', () => {
    const secrets = Array.from({ length: 20 }, () => generateSecret());
    for (const secret of secrets) expect(secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(new Set(secrets).size).toBe(secrets.length);
  });
});
