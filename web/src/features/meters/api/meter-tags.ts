// The cache tags of the meters feature (STYLE.md, RTK Query): one tag per
// meter, one per list and one per count, so each mutation invalidates exactly
// what it changes.
export type MeterListKind = 'all' | 'lost' | 'down' | 'critical';

/** Every list of meters carries this tag, and its own `LIST-<kind>`. */
export const METER_LIST_TAG = { type: 'Meter', id: 'LIST' } as const;

export const meterTag = (id: string) => ({ type: 'Meter', id }) as const;
export const meterListTag = (kind: MeterListKind) => ({ type: 'Meter', id: `LIST-${kind}` }) as const;

/** Count tags are named after their path under `api/proxy/`, as the overview's are. */
export type MeterCountKind = MeterListKind | 'unhealthy';
const COUNT_ID: Record<MeterCountKind, string> = {
  all: 'wmeters/count',
  lost: 'wmeters/lost/count',
  down: 'wmeters/down/count',
  critical: 'wmeters/critical/count',
  unhealthy: 'wmeters/unhealthy/count',
};
export const meterCountTag = (kind: MeterCountKind) => ({ type: 'Count', id: COUNT_ID[kind] }) as const;
export const ALL_METER_COUNT_TAGS = (Object.keys(COUNT_ID) as MeterCountKind[]).map(meterCountTag);
