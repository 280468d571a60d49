// The server's refusals in the user's language: a code as a sentence for
// the page's or the dialog's alert, and each field's rule, as the dialog
// checks it and the server states it, for the messages under the fields.
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

import {
  GROUP_WINDOW_SECS,
  RULE_NAME_MAX_CHARS,
  RULE_RECIPIENTS,
  WEBHOOK_SECRET_CHARS,
} from '../../../lib/constants.ts';
import { namedFieldErrors, refusalMessage, type FieldErrors } from '../../../lib/refusals.ts';
import { RULE_FIELDS, type RuleDraft, type RuleField } from '../api/rule-draft.ts';

export type RuleErrors = FieldErrors<RuleField>;

export function useRuleErrors() {
  const { t } = useTranslation('alarmRules');

  /** The alert for a refused change, test or read. */
  const problem = useCallback(
    (error: unknown): string =>
      refusalMessage(error, { byCode: { not_found: t('errors.notFound') }, forbidden: t('notAllowed'), failed: t('errors.failed') }),
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
    (error: unknown, draft: Pick<RuleDraft, 'scope'>): RuleErrors => namedFieldErrors(error, RULE_FIELDS, rules(draft)),
    [rules],
  );

  return { problem, rules, fields };
}
