// The rule dialog's form: the draft, checked with the server's rules before
// it is sent, then created or saved; the server's refusals show under their
// fields, any other as the form's alert.
import { useState } from 'react';

import { isCancelled } from '../../../lib/api.ts';
import { useCreateAlarmRuleMutation, useUpdateAlarmRuleMutation } from '../api/alarm-rules-api.ts';
import { brokenFields, draftOf, inputOf, type RuleDraft, type RuleField } from '../api/rule-draft.ts';
import type { Rule } from '../api/rule-types.ts';
import { useRuleErrors, type RuleErrors } from './use-rule-errors.ts';

/** Changes the draft, and forgets the errors of the fields named. */
export type ChangeDraft = (changes: Partial<RuleDraft>, ...fields: RuleField[]) => void;

export function useRuleForm(rule: Rule | null, onSaved: (saved: Rule) => void) {
  const refusals = useRuleErrors();
  const [create, creating] = useCreateAlarmRuleMutation();
  const [update, updating] = useUpdateAlarmRuleMutation();
  const [draft, setDraft] = useState(() => draftOf(rule));
  const [errors, setErrors] = useState<RuleErrors>({});
  const [problem, setProblem] = useState<string | null>(null);

  const change: ChangeDraft = (changes, ...fields) => {
    setDraft((before) => ({ ...before, ...changes }));
    setErrors((before) => Object.fromEntries(Object.entries(before).filter(([field]) => !(fields as string[]).includes(field))));
  };

  const submit = async () => {
    setProblem(null);
    const texts = refusals.rules(draft);
    const found: RuleErrors = Object.fromEntries(brokenFields(draft).map((field) => [field, texts[field]]));
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const input = inputOf(draft);
    try {
      onSaved(await (rule ? update({ id: rule.id, input }) : create(input)).unwrap());
    } catch (error) {
      if (isCancelled(error)) return;
      const named = refusals.fields(error, draft);
      if (Object.keys(named).length > 0) setErrors(named);
      else setProblem(refusals.problem(error));
    }
  };

  return { draft, change, errors, problem, submit, busy: creating.isLoading || updating.isLoading };
}
