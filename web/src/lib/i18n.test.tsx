import { describe, expect, it } from 'vitest';

import { resources } from './i18n.ts';

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

describe('translations', () => {
  for (const [namespace, english] of Object.entries(resources.en)) {
    it(`fr has every key of en in ${namespace}`, () => {
      const french = resources.fr[namespace as keyof typeof resources.fr];
      expect(keys(french).sort()).toEqual(keys(english).sort());
    });

    it(`no ${namespace} string is empty in either language`, () => {
      const french = resources.fr[namespace as keyof typeof resources.fr];
      const empty = [english, french].flatMap((tree) =>
        keys(tree).filter((key) => {
          const leaf = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], tree);
          return typeof leaf !== 'string' || leaf.trim() === '';
        }),
      );
      expect(empty.filter((k) => k !== '')).toEqual([]);
    });
  }
});
