// What an admin does to a listed rule: turn it on or off and send a test
// message at once, delete it once confirmed. The rule being changed waits;
// a refusal shows as the page's alert.
import { useTranslation } from 'react-i18next';

import { useNotice } from '../../../components/notice.tsx';
import { useRowActions } from '../../../lib/use-row-actions.ts';
import {
  useDeleteAlarmRuleMutation,
  useTestAlarmRuleMutation,
  useUpdateAlarmRuleMutation,
} from '../api/alarm-rules-api.ts';
import { inputOfRule } from '../api/rule-draft.ts';
import type { Rule } from '../api/rule-types.ts';
import { useRuleErrors } from './use-rule-errors.ts';

export function useRuleActions() {
  const { t } = useTranslation('alarmRules');
  const notify = useNotice();
  const { problem } = useRuleErrors();
  const [update] = useUpdateAlarmRuleMutation();
  const [remove] = useDeleteAlarmRuleMutation();
  const [sendTest] = useTestAlarmRuleMutation();
  const { run, ask, cancel, confirm, ...rows } = useRowActions<Rule>(problem);

  const toggle = async (rule: Rule) => {
    const enabled = !rule.enabled;
    if (await run(rule.id, () => update({ id: rule.id, input: { ...inputOfRule(rule), enabled } }).unwrap())) {
      notify(enabled ? t('done.enabled', { name: rule.name }) : t('done.disabled', { name: rule.name }));
    }
  };

  const test = async (rule: Rule) => {
    if (await run(rule.id, () => sendTest(rule.id).unwrap())) notify(t('done.testQueued'));
  };

  const confirmDelete = () =>
    confirm(async (rule) => {
      if (await run(rule.id, () => remove(rule.id).unwrap())) notify(t('done.deleted', { name: rule.name }));
    });

  return {
    ...rows,
    /** Asks before the rule is deleted. */
    askDelete: ask,
    cancelDelete: cancel,
    confirmDelete,
    toggle,
    test,
  };
}
