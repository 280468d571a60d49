// An API key's expiry, as the New API key dialog offers it: 30 days, 90 days
// or a year from now, or the start (local midnight) of a day chosen in a date
// input, from tomorrow to API_KEY_MAX_DAYS ahead; the server refuses others.
import { API_KEY_EXPIRY_DAYS, API_KEY_MAX_DAYS } from '../../../lib/constants.ts';
import { localDateInput, startOfLocalDay } from '../../../lib/local-date-time.ts';

type Preset = keyof typeof API_KEY_EXPIRY_DAYS;
export type ExpiryChoice = Preset | 'custom';

export const EXPIRY_CHOICES: readonly ExpiryChoice[] = [...(Object.keys(API_KEY_EXPIRY_DAYS) as Preset[]), 'custom'];

const DAY_MS = 86_400_000;

const daysAhead = (now: Date, days: number) => new Date(now.getTime() + days * DAY_MS);

/** The first and last days a custom expiry may fall on, as `date` input values. */
export function customDateRange(now: Date): { min: string; max: string } {
  return { min: localDateInput(daysAhead(now, 1)), max: localDateInput(daysAhead(now, API_KEY_MAX_DAYS)) };
}

/** When a key made `now` expires, or null when the custom date is missing or out of range. */
export function expiryOf(choice: ExpiryChoice, customDate: string, now: Date): Date | null {
  if (choice !== 'custom') return daysAhead(now, API_KEY_EXPIRY_DAYS[choice]);
  const start = startOfLocalDay(customDate);
  return start && start > now && start <= daysAhead(now, API_KEY_MAX_DAYS) ? start : null;
}
