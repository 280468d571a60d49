// The server's refusals in the user's language (the admin screens' alerts
// and their dialogs' fields): a refusal's code as a sentence, and the rule
// of each field a 400 names, as the message under that field.
import { errorCode, errorFields, isForbidden } from './api.ts';

export type FieldErrors<F extends string> = Partial<Record<F, string>>;

/** How a form words the server's refusals. */
export interface Refusals<F extends string> {
  /** The messages under the fields a refusal names; empty when it names none. */
  fields: (error: unknown) => FieldErrors<F>;
  /** The form's alert for any other refusal. */
  problem: (error: unknown) => string;
}

interface RefusalWords {
  /** The sentence of each code the screen words, e.g. `not_found`. */
  byCode: Readonly<Record<string, string>>;
  /** A 403 without a worded code. */
  forbidden: string;
  /** Anything else. */
  failed: string;
}

/** The sentence for a refusal: its code's when worded, else whether the role may not, else that it failed. */
export function refusalMessage(error: unknown, { byCode, forbidden, failed }: RefusalWords): string {
  const code = errorCode(error);
  if (code !== null && Object.hasOwn(byCode, code)) return byCode[code] ?? failed;
  return isForbidden(error) ? forbidden : failed;
}

/** The rule of each of `fields` that the server's refusal names, as the message under it. */
export function namedFieldErrors<F extends string>(error: unknown, fields: readonly F[], rules: Record<F, string>): FieldErrors<F> {
  const named = errorFields(error);
  const found: FieldErrors<F> = {};
  for (const field of fields) if (field in named) found[field] = rules[field];
  return found;
}
