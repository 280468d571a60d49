// The thresholds form's pure rules: the server's ranges (docs/analytics.md,
// Thresholds per meter), a field's text to its value and back, and the
// fields a refusal names. An empty field follows the network's default.
import { errorCode, httpStatus } from '../../../lib/api.ts';
import { CONTINUOUS_FLOW_HOURS, LITRES_PER_HOUR, STUCK_METER_DAYS } from '../../../lib/constants.ts';
import { THRESHOLD_NAMES, type ThresholdName, type ThresholdValues } from '../api/thresholds-api.ts';

/** What a threshold counts; it names the field's error message too. */
export type ThresholdUnit = 'hours' | 'litresPerHour' | 'days';

export const UNIT_OF: Record<ThresholdName, ThresholdUnit> = {
  continuousFlowHours: 'hours',
  nightFlowLitresPerHour: 'litresPerHour',
  burstLitresPerHour: 'litresPerHour',
  stuckMeterDays: 'days',
};

/** The fields' texts, as typed. */
export type ThresholdTexts = Record<ThresholdName, string>;
/** The fields out of range (each unit has one message, the server's). */
export type ThresholdErrors = Partial<Record<ThresholdName, boolean>>;

const WHOLE = { hours: CONTINUOUS_FLOW_HOURS, days: STUCK_METER_DAYS } as const;
/** Litres are kept to the millilitre: the server rounds, then checks. */
const ML = { min: Math.round(LITRES_PER_HOUR.min * 1000), max: Math.round(LITRES_PER_HOUR.max * 1000) };
const NUMBER = /^-?\d+(\.\d+)?$/;
/** English thousands, `1,000.5`; in French the comma is the decimal mark. */
const EN_GROUPED = /^-?\d{1,3}(,\d{3})+(\.\d+)?$/;

/** The number typed, in the language's way of writing it; NaN when it is none. */
function numberOf(text: string, language: string): number {
  let plain = text.replace(/\s/gu, '');
  if (language.startsWith('fr')) plain = plain.replace(',', '.');
  else if (EN_GROUPED.test(plain)) plain = plain.replace(/,/gu, '');
  return NUMBER.test(plain) ? Number(plain) : Number.NaN;
}

/** A field's value: `null` when empty (the default), undefined when out of range. */
export function parseThreshold(name: ThresholdName, text: string, language: string): number | null | undefined {
  if (text.trim() === '') return null;
  const value = numberOf(text, language);
  const unit = UNIT_OF[name];
  if (unit === 'litresPerHour') {
    const ml = Math.round(value * 1000);
    return ml >= ML.min && ml <= ML.max ? value : undefined;
  }
  const { min, max } = WHOLE[unit];
  return Number.isInteger(value) && value >= min && value <= max ? value : undefined;
}

export type ParsedThresholds = { ok: true; values: ThresholdValues } | { ok: false; errors: ThresholdErrors };

/** Every field parsed: the body to send, or the fields out of range. */
export function parseThresholds(texts: ThresholdTexts, language: string): ParsedThresholds {
  const values: Partial<ThresholdValues> = {};
  const errors: ThresholdErrors = {};
  for (const name of THRESHOLD_NAMES) {
    const value = parseThreshold(name, texts[name], language);
    if (value === undefined) errors[name] = true;
    else values[name] = value;
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, values: values as ThresholdValues };
}

/** A value as the field shows it: no grouping, the language's decimal mark. */
export function thresholdText(value: number | null, language: string): string {
  if (value === null) return '';
  return new Intl.NumberFormat(language, { useGrouping: false, maximumFractionDigits: 3 }).format(value);
}

export function thresholdTexts(values: ThresholdValues, language: string): ThresholdTexts {
  const texts = {} as ThresholdTexts;
  for (const name of THRESHOLD_NAMES) texts[name] = thresholdText(values[name], language);
  return texts;
}

/** The thresholds a 400 `validation_failed` names in `fields`; null for any other error. */
export function refusedThresholds(error: unknown): ThresholdErrors | null {
  if (httpStatus(error) !== 400 || errorCode(error) !== 'validation_failed') return null;
  const fields = (error as { data: { fields?: unknown } }).data.fields;
  if (typeof fields !== 'object' || fields === null) return null;
  const errors: ThresholdErrors = {};
  for (const name of THRESHOLD_NAMES) if (Object.hasOwn(fields, name)) errors[name] = true;
  return Object.keys(errors).length ? errors : null;
}
