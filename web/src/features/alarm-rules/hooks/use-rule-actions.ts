// What an admin does to a listed rule: turn it on or off and send a test
// message at once, delete it once confirmed. The rule being changed waits;
// a refusal shows as the page's alert.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useNotice } from '../../../components/notice.tsx';
import { isCancelled } from '../../../lib/api.ts';
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
  const [pending, setPending] = useState<Rule | null>(null);
  const [working, setWorking] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  /** Runs one change of `rule`; true when it was made. */
  const run = async (rule: Rule, change: () => Promise<unknown>): Promise<boolean> => {
    setError(null);
    setWorking(rule.id);
    try {
      await change();
      return true;
    } catch (failure) {
      if (!isCancelled(failure)) setError(problem(failure));
      return false;
    } finally {
      setWorking(null);
    }
  };

  const toggle = async (rule: Rule) => {
    const enabled = !rule.enabled;
    if (await run(rule, () => update({ id: rule.id, input: { ...inputOfRule(rule), enabled } }).unwrap())) {
      notify(enabled ? t('done.enabled', { name: rule.name }) : t('done.disabled', { name: rule.name }));
    }
  };

  const test = async (rule: Rule) => {
    if (await run(rule, () => sendTest(rule.id).unwrap())) notify(t('done.testQueued'));
  };

  const confirmDelete = async () => {
    if (!pending) return;
    if (await run(pending, () => remove(pending.id).unwrap())) notify(t('done.deleted', { name: pending.name }));
    setPending(null);
  };

  return {
    /** The rule waiting for the confirmation of its deletion. */
    pending,
    askDelete: setPending,
    cancelDelete: () => {
      setPending(null);
    },
    confirmDelete,
    /** The id of the rule being changed. */
    working,
    toggle,
    test,
    error,
    clearError: () => {
      setError(null);
    },
  };
}
