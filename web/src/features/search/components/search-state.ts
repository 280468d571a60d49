// The navigation state the search box hands to the results screen (spec §2).
import type { Device } from '../../../lib/types.ts';

export interface SearchState {
  results?: Device[];
  notFound?: boolean;
  /** What was searched for, for the map to draw it (docs/map.md). */
  query?: { q: string; radius: number };
}

export const NOT_FOUND: SearchState = { notFound: true };

export function stateOf(results: Device[], query?: SearchState['query']): SearchState {
  if (results.length === 0) return { results, notFound: true };
  return query ? { results, query } : { results };
}

/** The map of what was searched for, when a search led here. */
export function mapPathOf(state: unknown): string | null {
  if (typeof state !== 'object' || state === null) return null;
  const { query } = state as { query?: { q?: unknown; radius?: unknown } };
  if (typeof query?.q !== 'string' || typeof query.radius !== 'number') return null;
  return `/map?${new URLSearchParams({ q: query.q, radius: String(query.radius) }).toString()}`;
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
