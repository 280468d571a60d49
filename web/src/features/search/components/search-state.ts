// The navigation state the search box hands to the results screen (spec §2).
import type { Device } from '../../../lib/types.ts';

export interface SearchState {
  results?: Device[];
  notFound?: boolean;
}

export const NOT_FOUND: SearchState = { notFound: true };

export function stateOf(results: Device[]): SearchState {
  return results.length > 0 ? { results } : { results, notFound: true };
}

const isDevice = (value: unknown): value is Device =>
  typeof value === 'object' && value !== null && '_id' in value;

/** The devices to show, or null for 'No matching devices found'. */
export function resultsOf(state: unknown): Device[] | null {
  if (typeof state !== 'object' || state === null) return null;
  const { results, notFound } = state as { results?: unknown; notFound?: unknown };
  if (notFound === true || !Array.isArray(results)) return null;
  const devices = results.filter(isDevice);
  return devices.length > 0 ? devices : null;
}
