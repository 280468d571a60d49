// The rule dialog's form: the draft, checked with the server's rules before
// it is sent, then created or saved; the server's refusals show under their
// fields, any other as the form's alert.
import { useState } from 'react';

import { useFormErrors } from '../../../lib/use-form-errors.ts';
import { useCreateAlarmRuleMutation, useUpdateAlarmRuleMutation } from '../api/alarm-rules-api.ts';
import { brokenFields, draftOf, inputOf, type RuleDraft, type RuleField } from '../api/rule-draft.ts';
import type { Rule } from '../api/rule-types.ts';
import { useRuleErrors } from './use-rule-errors.ts';

/** Changes the draft, and forgets the errors of the fields named. */
export type ChangeDraft = (changes: Partial<RuleDraft>, ...fields: RuleField[]) => void;

export function useRuleForm(rule: Rule | null, onSaved: (saved: Rule) => void) {
  const refusals = useRuleErrors();
  const [create, creating] = useCreateAlarmRuleMutation();
  const [update, updating] = useUpdateAlarmRuleMutation();
  const [draft, setDraft] = useState(() => draftOf(rule));
  const { errors, problem, forget, check, send } = useFormErrors({
    fields: (error) => refusals.fields(error, draft),
    problem: refusals.problem,
  });

  const change: ChangeDraft = (changes, ...fields) => {
    setDraft((before) => ({ ...before, ...changes }));
    forget(...fields);
  };

  const submit = async () => {
    const texts = refusals.rules(draft);
    if (!check(Object.fromEntries(brokenFields(draft).map((field) => [field, texts[field]])))) return;
    const input = inputOf(draft);
    await send(() => (rule ? update({ id: rule.id, input }) : create(input)).unwrap(), onSaved);
  };

  return { draft, change, errors, problem, submit, busy: creating.isLoading || updating.isLoading };
}
