// A dialog form's messages (a new user, a new API key, an alarm rule): each
// field's, from the form's own check or from the server's refusal naming
// that field, and the form's alert for a refusal no field explains.
import { useState } from 'react';

import { isCancelled } from './api.ts';
import type { FieldErrors, Refusals } from './refusals.ts';

export function useFormErrors<F extends string>(refusals: Refusals<F>) {
  const [errors, setErrors] = useState<FieldErrors<F>>({});
  const [problem, setProblem] = useState<string | null>(null);

  /** Forgets the messages of the fields named: their values changed. */
  const forget = (...fields: F[]) => {
    setErrors((before) => {
      const kept: FieldErrors<F> = {};
      for (const field of Object.keys(before) as F[]) if (!fields.includes(field)) kept[field] = before[field];
      return kept;
    });
  };

  /** Shows the form's own findings and clears its alert; true when there are none. */
  const check = (found: FieldErrors<F>): boolean => {
    setProblem(null);
    setErrors(found);
    return Object.keys(found).length === 0;
  };

  /** Sends the form, then hands on the answer; a refusal shows under its fields, or as the alert. */
  const send = async <T,>(request: () => Promise<T>, onAnswer: (answer: T) => void) => {
    try {
      onAnswer(await request());
    } catch (error) {
      if (isCancelled(error)) return;
      const named = refusals.fields(error);
      if (Object.keys(named).length > 0) setErrors(named);
      else setProblem(refusals.problem(error));
    }
  };

  return { errors, problem, forget, check, send };
}
