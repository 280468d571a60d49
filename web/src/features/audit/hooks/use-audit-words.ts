// An entry's words: who acted (their name, else the actor's id), the role
// in the user's language when it is one of the roles, the outcome.
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { isRole } from '../../../lib/permissions.ts';
import type { AuditEntry } from '../api/audit-api.ts';

export function useAuditWords() {
  const { t } = useTranslation('audit');
  const { t: common } = useTranslation();
  return useMemo(
    () => ({
      actor: (entry: Pick<AuditEntry, 'actor' | 'username'>) => entry.username ?? entry.actor,
      role: (role: string) => (isRole(role) ? common(`roles.${role}`) : role),
      outcome: (outcome: string) => (outcome === 'ok' ? t('outcome.ok') : t('outcome.refused', { code: outcome })),
    }),
    [t, common],
  );
}
