// Translation keys are typed from the English files, so `t('nav.overview')`
// is checked by the compiler.
import 'i18next';

import type { Strings } from './locales/en.ts';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: Strings;
  }
}
