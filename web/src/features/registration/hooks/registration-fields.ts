// The fields of the registration forms and their pure rules (spec §5): a
// field parses to its canonical value, or to the error shown under it.
import type { CheckedField } from '../../../lib/fieldcheck-api.ts';
import type { Gps, Parsed, ValidationMessage } from '../../../lib/validation.ts';
import type { RegistrationBody } from '../api/registration-api.ts';

export type FieldName = CheckedField | 'gpsCoordinates';

export interface FieldSpec {
  name: FieldName;
  parse: (input: string) => Parsed<string | Gps>;
  /** The `fieldcheck` uniqueness check run on blur and on submit. */
  check?: CheckedField;
  optional?: boolean;
}

export type FieldError =
  | { kind: 'format'; message: ValidationMessage }
  | { kind: 'inUse' }
  | { kind: 'checkFailed' }
  | { kind: 'server'; text: string };

export type FieldValues = Partial<Record<FieldName, string>>;
/** `null` once a field's error was cleared. */
export type FieldErrors = Partial<Record<FieldName, FieldError | null>>;

/** An empty optional field parses to `undefined`, and is left out of the body. */
export type FieldResult = { ok: true; value: string | Gps | undefined } | { ok: false; error: FieldError };

export function parseField(spec: FieldSpec, raw: string | undefined): FieldResult {
  const input = (raw ?? '').trim();
  if (spec.optional && input === '') return { ok: true, value: undefined };
  const parsed = spec.parse(input);
  return parsed.ok ? parsed : { ok: false, error: { kind: 'format', message: parsed.message } };
}

/** The value to check for uniqueness, when the field has a check and parsed. */
export function checkedValue(spec: FieldSpec, result: FieldResult): { field: CheckedField; value: string } | null {
  if (!spec.check || !result.ok || typeof result.value !== 'string') return null;
  return { field: spec.check, value: result.value };
}

export function bodyOf(fields: readonly FieldSpec[], results: readonly FieldResult[]): RegistrationBody {
  const body: Record<string, string | Gps> = {};
  fields.forEach((spec, i) => {
    const result = results[i];
    if (result?.ok && result.value !== undefined) body[spec.name] = result.value;
  });
  return body;
}

/** Per-field errors of a 400 or 409 answer (`{code, message, fields}`). */
export function serverFieldErrors(fields: readonly FieldSpec[], error: unknown): FieldErrors {
  if (typeof error !== 'object' || error === null) return {};
  const { status, data } = error as { status?: unknown; data?: unknown };
  if ((status !== 400 && status !== 409) || typeof data !== 'object' || data === null) return {};
  const messages = (data as { fields?: unknown }).fields;
  if (typeof messages !== 'object' || messages === null) return {};
  const errors: FieldErrors = {};
  for (const { name } of fields) {
    const text = (messages as Record<string, unknown>)[name];
    if (typeof text !== 'string') continue;
    errors[name] = status === 409 ? { kind: 'inUse' } : { kind: 'server', text };
  }
  return errors;
}
