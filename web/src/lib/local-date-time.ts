// The value of a `datetime-local` or `date` input, in the browser's time
// zone: now as its default, and the instant a value names (docs/analytics.md,
// Exports; the audit screen's time filters; an API key's expiry date).

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DDTHH:mm` of `date` in local time. */
export function localDateTimeInput(date: Date): string {
  return `${String(date.getFullYear())}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** `YYYY-MM-DD` of `date` in local time (a `date` input's value). */
export function localDateInput(date: Date): string {
  return localDateTimeInput(date).slice(0, 'YYYY-MM-DD'.length);
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** The instant a `datetime-local` value names in local time, or null when it names none. */
export function instantOf(value: string): Date | null {
  const parts = LOCAL.exec(value.trim());
  if (!parts) return null;
  const number = (i: number) => Number(parts[i] ?? 0);
  const [year, month, day, hour, minute, second] = [number(1), number(2), number(3), number(4), number(5), number(6)];
  const date = new Date(year, month - 1, day, hour, minute, second);
  const same = date.getFullYear() === year && date.getMonth() === month - 1 && date.getDate() === day;
  return same && hour < 24 && minute < 60 && second < 60 ? date : null;
}

/** The local midnight that starts the day a `date` value names, or null when it names none. */
export function startOfLocalDay(value: string): Date | null {
  return instantOf(`${value.trim()}T00:00`);
}
