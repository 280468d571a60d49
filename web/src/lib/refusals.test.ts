import { describe, expect, it } from 'vitest';

import { errorMessage } from './api.ts';
import { namedFieldErrors, refusalMessage } from './refusals.ts';

const refused = (status: number, data: unknown) => ({ status, data });
const words = { byCode: { not_found: 'Gone' }, forbidden: 'Not yours', failed: 'Failed' };

describe('refusals', () => {
  it('words a refusal by its code, else by whether the role may not', () => {
    expect(refusalMessage(refused(404, { code: 'not_found' }), words)).toBe('Gone');
    expect(refusalMessage(refused(403, { code: 'forbidden' }), words)).toBe('Not yours');
    expect(refusalMessage(refused(409, { code: 'toString' }), words)).toBe('Failed');
    expect(refusalMessage({ status: 'FETCH_ERROR', error: 'offline' }, words)).toBe('Failed');
  });

  it('gives the rule of each field the server names, and only those', () => {
    const error = refused(400, { code: 'invalid', fields: { name: 'too long', other: 'ignored' } });
    expect(namedFieldErrors(error, ['name', 'role'], { name: 'Name rule', role: 'Role rule' })).toEqual({ name: 'Name rule' });
    expect(namedFieldErrors(refused(500, 'oops'), ['name'], { name: 'Name rule' })).toEqual({});
  });

  it('reads the sentence of an error body', () => {
    expect(errorMessage(refused(400, { code: 'invalid_csv', message: 'No data rows' }))).toBe('No data rows');
    expect(errorMessage(refused(400, { code: 'invalid_csv', message: '' }))).toBeNull();
    expect(errorMessage(refused(413, '<html>'))).toBeNull();
  });
});
