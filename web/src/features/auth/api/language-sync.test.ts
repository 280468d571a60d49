import { describe, expect, it } from 'vitest';

import { languageStep } from './language-sync.ts';

const settled = { unsaved: false, reloadedFor: null };

describe('the language kept on the server and in the browser', () => {
  it("applies the server's language when it differs", () => {
    expect(languageStep({ server: 'fr', local: 'en', ...settled })).toEqual({ kind: 'apply', language: 'fr' });
    expect(languageStep({ server: 'fr', local: 'fr', ...settled })).toEqual({ kind: 'settled' });
  });

  it("saves the browser's language when the server has none or missed the last switch", () => {
    expect(languageStep({ server: null, local: 'fr', ...settled })).toEqual({ kind: 'push', language: 'fr' });
    expect(languageStep({ server: 'fr', local: 'en', unsaved: true, reloadedFor: null })).toEqual({ kind: 'push', language: 'en' });
  });

  it('reloads only once for a language: a second time it stops', () => {
    expect(languageStep({ server: 'fr', local: 'en', unsaved: false, reloadedFor: 'fr' })).toEqual({ kind: 'stuck' });
    expect(languageStep({ server: 'en', local: 'fr', unsaved: false, reloadedFor: 'fr' })).toEqual({ kind: 'apply', language: 'en' });
  });
});
