// The server's 400 for the time filters, in the user's language, under the
// field it names: `from` when it is not a time or does not come before
// `to`, `to` when it is not a time.
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { errorFields } from '../../../lib/api.ts';
import type { AuditFilter } from '../api/audit-view.ts';

export type TimeErrors = Partial<Record<'from' | 'to', string>>;

export function useTimeErrors(error: unknown, filter: Pick<AuditFilter, 'from' | 'to'>): TimeErrors {
  const { t } = useTranslation('audit');
  return useMemo(() => {
    const named = errorFields(error);
    const from = Date.parse(filter.from);
    const to = Date.parse(filter.to);
    const errors: TimeErrors = {};
    if ('from' in named) errors.from = !Number.isNaN(from) && !Number.isNaN(to) && from >= to ? t('errors.fromAfterTo') : t('errors.time');
    if ('to' in named) errors.to = t('errors.time');
    return errors;
  }, [error, filter.from, filter.to, t]);
}
