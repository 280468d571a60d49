// The six counts behind the gauges, refreshed every OVERVIEW_REFRESH_MS (spec §4).
import { OVERVIEW_REFRESH_MS } from '../../../lib/constants.ts';
import { useLoggedError } from '../../../lib/use-logged-error.ts';
import { useOverviewCountQuery, type OverviewCountPath } from '../api/overview-api.ts';

const POLL = { pollingInterval: OVERVIEW_REFRESH_MS } as const;

function usePolledCount(path: OverviewCountPath): number | undefined {
  const { data, error } = useOverviewCountQuery(path, POLL);
  useLoggedError(error, path);
  return data;
}

export interface Health {
  healthy: number;
  total: number;
  /** healthy / total × 100, or 0 when total is 0 (spec §5). */
  percent: number;
}

/** Healthy = total minus the unhealthy ones (spec §5, Overview). */
export function healthOf(total: number, unhealthy: number): Health {
  const healthy = Math.max(0, total - unhealthy);
  return { healthy, total, percent: total > 0 ? (healthy / total) * 100 : 0 };
}

export interface OverviewCounts {
  gateways: Health | undefined;
  meters: Health | undefined;
  lostGateways: number | undefined;
  lostMeters: number | undefined;
  criticalMeters: number | undefined;
}

export function useOverviewCounts(): OverviewCounts {
  const gateways = usePolledCount('gateways/count');
  const lostGateways = usePolledCount('gateways/lost/count');
  const meters = usePolledCount('wmeters/count');
  const unhealthyMeters = usePolledCount('wmeters/unhealthy/count');
  const lostMeters = usePolledCount('wmeters/lost/count');
  const criticalMeters = usePolledCount('wmeters/critical/count');
  return {
    gateways: gateways === undefined || lostGateways === undefined ? undefined : healthOf(gateways, lostGateways),
    meters: meters === undefined || unhealthyMeters === undefined ? undefined : healthOf(meters, unhealthyMeters),
    lostGateways,
    lostMeters,
    criticalMeters,
  };
}
