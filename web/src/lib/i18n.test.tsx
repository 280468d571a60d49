import { render, screen } from '@testing-library/react';
import { useTranslation } from 'react-i18next';
import { describe, expect, it } from 'vitest';

import { english } from '../locales/en.ts';
import { french } from '../locales/fr.ts';
import { applyLanguage, initI18n } from './i18n.ts';

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

describe('translations', () => {
  for (const [namespace, strings] of Object.entries(english)) {
    it(`fr has every key of en in ${namespace}`, () => {
      const translated = french[namespace as keyof typeof french];
      expect(keys(translated).sort()).toEqual(keys(strings).sort());
    });

    it(`no ${namespace} string is empty in either language`, () => {
      const translated = french[namespace as keyof typeof french];
      const empty = [strings, translated].flatMap((tree) =>
        keys(tree).filter((key) => {
          const leaf = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], tree);
          return typeof leaf !== 'string' || leaf.trim() === '';
        }),
      );
      expect(empty.filter((k) => k !== '')).toEqual([]);
    });
  }
});

function Footer() {
  const { t } = useTranslation();
  return <p>{t('footer')}</p>;
}

/** Every module of the app, tests aside, as text. */
const sources = import.meta.glob<string>(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

describe('the language', () => {
  it('has French imported by no module but dynamically, so it is no part of the entry', () => {
    const importers = Object.entries(sources)
      .filter(([, text]) => /^import [^;]*locales\/fr/mu.test(text))
      .map(([path]) => path);
    expect(importers).toEqual([]);
    expect(sources['./i18n.ts']).toContain("import('../locales/fr.ts')");
  });

  it('starts in English, the French strings not loaded until French is chosen', async () => {
    const i18n = initI18n();
    expect(i18n.language).toBe('en');
    expect(i18n.hasResourceBundle('fr', 'common')).toBe(false);

    await applyLanguage('fr');
    expect(Object.keys(french).every((namespace) => i18n.hasResourceBundle('fr', namespace))).toBe(true);
    expect(document.documentElement.lang).toBe('fr');

    await applyLanguage('en');
    expect(document.documentElement.lang).toBe('en');
  });

  it('renders French text once switched to French, and English again after', async () => {
    render(<Footer />);
    expect(screen.getByText('© 2025 w-meter. All rights reserved.')).toBeInTheDocument();

    await applyLanguage('fr');
    expect(await screen.findByText('© 2025 w-meter. Tous droits réservés.')).toBeInTheDocument();

    await applyLanguage('en');
    expect(await screen.findByText('© 2025 w-meter. All rights reserved.')).toBeInTheDocument();
  });
});
