// The server's refusals in the user's language: a code as a sentence for
// the page's or the dialog's alert, and each field's rule, as the dialog
// checks it and the server states it, for the messages under the fields.
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

import { errorCode, errorFields, isForbidden } from '../../../lib/api.ts';
import {
  GROUP_WINDOW_SECS,
  RULE_NAME_MAX_CHARS,
  RULE_RECIPIENTS,
  WEBHOOK_SECRET_CHARS,
} from '../../../lib/constants.ts';
import { RULE_FIELDS, type RuleDraft, type RuleField } from '../api/rule-draft.ts';

export type RuleErrors = Partial<Record<RuleField, string>>;

export function useRuleErrors() {
  const { t } = useTranslation('alarmRules');

  /** The alert for a refused change, test or read. */
  const problem = useCallback(
    (error: unknown): string => {
      if (errorCode(error) === 'not_found') return t('errors.notFound');
      return isForbidden(error) ? t('notAllowed') : t('errors.failed');
    },
    [t],
  );

  /** Each field's rule, worded for the draft's choices. */
  const rules = useCallback(
    (draft: Pick<RuleDraft, 'scope'>): Record<RuleField, string> => ({
      name: t('fields.name', { max: RULE_NAME_MAX_CHARS }),
      'match.types': t('fields.types'),
      'match.severities': t('fields.severities'),
      'match.devices': draft.scope === 'gateway' ? t('fields.gateway') : t('fields.devices'),
      'channel.to': t('fields.to', RULE_RECIPIENTS),
      'channel.url': t('fields.url'),
      'channel.secret': t('fields.secret', WEBHOOK_SECRET_CHARS),
      groupWindowSecs: t('fields.groupWindow', GROUP_WINDOW_SECS),
    }),
    [t],
  );

  /** The messages under the fields the server named. */
  const fields = useCallback(
    (error: unknown, draft: Pick<RuleDraft, 'scope'>): RuleErrors => {
      const named = errorFields(error);
      const texts = rules(draft);
      return Object.fromEntries(RULE_FIELDS.filter((field) => field in named).map((field) => [field, texts[field]]));
    },
    [rules],
  );

  return { problem, rules, fields };
}
