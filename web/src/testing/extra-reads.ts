// Empty answers to the reads pages make beyond the spec's (the shell's
// alarm count, a device's alarms, a meter's valve timeline, consumption
// chart and leak-detection thresholds, the overview's network consumption
// and top consumers, a gateway's traffic and MQTT credentials), for the tests
// of every feature.
import { http, HttpResponse, type HttpHandler } from 'msw';

/** The network's default thresholds, as the server's configuration sets them. */
export const DEFAULT_THRESHOLDS = {
  continuousFlowHours: 24,
  nightFlowLitresPerHour: 5,
  burstLitresPerHour: 1000,
  stuckMeterDays: 7,
};

/** A meter's thresholds as `GET /api/thresholds/{id}` answers; by default it has none of its own. */
export function meterThresholds(
  meterId: string,
  own: Partial<typeof DEFAULT_THRESHOLDS> = {},
  set: { by: { id: string; name: string }; at: string } | null = null,
) {
  const none = { continuousFlowHours: null, nightFlowLitresPerHour: null, burstLitresPerHour: null, stuckMeterDays: null };
  return {
    meterId,
    own: { ...none, ...own },
    defaults: DEFAULT_THRESHOLDS,
    effective: { ...DEFAULT_THRESHOLDS, ...own },
    updatedBy: set?.by ?? null,
    updatedAt: set?.at ?? null,
  };
}

/** Empty answers to every alarm, valve-command, rollup, traffic, thresholds and credentials read a page makes. */
export function emptyExtraReads(): HttpHandler[] {
  return [
    http.get('/api/alarms', () => HttpResponse.json({ items: [], next: null })),
    http.get('/api/alarms/counts', () => HttpResponse.json({ active: 0, acknowledged: 0, cleared: 0, closed: 0 })),
    http.get('/api/alarms/assignees', () => HttpResponse.json([])),
    http.get('/api/valve-commands', () => HttpResponse.json([])),
    http.get('/api/rollups', ({ request }) => {
      const params = new URL(request.url).searchParams;
      const [from, to] = [params.get('from') ?? '', params.get('to') ?? ''];
      const scope = params.has('meter') ? 'meter' : params.has('gateway') ? 'gateway' : 'network';
      return HttpResponse.json({ scope, bucket: params.get('bucket'), timeZone: 'UTC', from, to, totalMl: 0, points: [] });
    }),
    http.get('/api/rollups/top', () => HttpResponse.json({ from: '2026-11-16T00:00:00Z', to: '2026-11-23T00:00:00Z', items: [] })),
    http.get('/api/traffic', ({ request }) => {
      const params = new URL(request.url).searchParams;
      const [gatewayId, from, to] = [params.get('gateway') ?? '', params.get('from') ?? '', params.get('to') ?? ''];
      return HttpResponse.json({ gatewayId, timeZone: 'UTC', from, to, points: [] });
    }),
    http.get('/api/thresholds/:meterId', ({ params }) => HttpResponse.json(meterThresholds(String(params.meterId)))),
    http.get('/api/devices/gateways/:gatewayId/credentials', () => HttpResponse.json({ credentials: [] })),
  ];
}
