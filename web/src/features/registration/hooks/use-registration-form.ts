// The registration form machinery shared by both registration pages
// (spec §4 Registration): edit, blur check, submit validation, uniqueness
// check, create, navigate to the detail page. Editing a field clears its error.
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';

import { isCancelled, isForbidden } from '../../../lib/api.ts';
import type { RegistrationBody } from '../api/registration-api.ts';
import {
  bodyOf,
  checkedValue,
  parseField,
  serverFieldErrors,
  type FieldError,
  type FieldErrors,
  type FieldName,
  type FieldSpec,
  type FieldValues,
} from './registration-fields.ts';
import { useFieldChecks } from './use-field-checks.ts';

export type FormFailure = 'forbidden' | 'failed';

interface Options {
  fields: readonly FieldSpec[];
  /** Creates the device; resolves to its id. */
  register: (body: RegistrationBody) => Promise<string>;
  detailPath: (id: string) => string;
}

const CANCELLED = 'cancelled';
type CheckOutcome = FieldError | null | typeof CANCELLED;

export function useRegistrationForm({ fields, register, detailPath }: Options) {
  const navigate = useNavigate();
  const checks = useFieldChecks();
  const [values, setValues] = useState<FieldValues>({});
  const latest = useRef<FieldValues>({});
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<FormFailure | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const busy = useRef(false);

  const setError = (name: FieldName, error: FieldError | null) => {
    setErrors((previous) => ({ ...previous, [name]: error }));
  };

  async function unique(spec: FieldSpec, raw: string | undefined): Promise<CheckOutcome> {
    const checked = checkedValue(spec, parseField(spec, raw));
    if (!checked) return null;
    try {
      const exists = await checks[checked.field](checked).unwrap();
      return exists ? { kind: 'inUse' } : null;
    } catch (error) {
      return isCancelled(error) ? CANCELLED : { kind: 'checkFailed' };
    }
  }

  const change = (name: FieldName, value: string) => {
    latest.current = { ...latest.current, [name]: value };
    setValues(latest.current);
    setError(name, null);
  };

  const blur = async (spec: FieldSpec) => {
    const raw = latest.current[spec.name];
    const result = parseField(spec, raw);
    if (!result.ok) {
      setError(spec.name, result.error);
      return;
    }
    const outcome = await unique(spec, raw);
    // A later edit or check of the field has the last word.
    if (outcome === CANCELLED || latest.current[spec.name] !== raw) return;
    setError(spec.name, outcome);
  };

  /** Whether the device was created (and the page is leaving for it). */
  async function validateAndCreate(): Promise<boolean> {
    const snapshot = latest.current;
    const results = fields.map((spec) => parseField(spec, snapshot[spec.name]));
    const formatErrors: FieldErrors = {};
    fields.forEach((spec, i) => {
      const result = results[i];
      formatErrors[spec.name] = result && !result.ok ? result.error : null;
    });
    setErrors(formatErrors);
    if (results.some((result) => !result.ok)) return false;

    const outcomes = await Promise.all(fields.map((spec) => unique(spec, snapshot[spec.name])));
    if (outcomes.includes(CANCELLED)) return false;
    const checkErrors: FieldErrors = {};
    fields.forEach((spec, i) => {
      const outcome = outcomes[i];
      checkErrors[spec.name] = outcome === CANCELLED ? null : (outcome ?? null);
    });
    setErrors(checkErrors);
    if (outcomes.some((outcome) => outcome !== null)) return false;

    try {
      const id = await register(bodyOf(fields, results));
      await navigate(detailPath(id));
      return true;
    } catch (error) {
      if (isCancelled(error)) return false;
      setFailure(isForbidden(error) ? 'forbidden' : 'failed');
      setErrors((previous) => ({ ...previous, ...serverFieldErrors(fields, error) }));
      return false;
    }
  }

  // Once the device is created the form stays busy: the router may show the
  // page a moment longer while it moves to the detail page, and a second
  // submit there would register the same device again.
  const submit = async () => {
    if (busy.current) return;
    busy.current = true;
    setSubmitting(true);
    setFailure(null);
    let created = false;
    try {
      created = await validateAndCreate();
    } finally {
      if (!created) {
        busy.current = false;
        setSubmitting(false);
      }
    }
  };

  return { values, errors, failure, submitting, change, blur, submit };
}

export type RegistrationForm = ReturnType<typeof useRegistrationForm>;
