// Meter lists and MSW handlers shared by the meters tests.
import { delay, http, HttpResponse, type HttpHandler } from 'msw';

import { idOf } from '../../../lib/format.ts';
import type { WaterMeter } from '../../../lib/types.ts';
import { meter } from '../../../testing/records.ts';
import { emptyExtraReads } from '../../../testing/extra-reads.ts';

/** `n` meters with distinct hex ids, registered one second apart (newest first). */
export function meters(n: number, from = 0): WaterMeter[] {
  return Array.from({ length: n }, (_, i) =>
    meter({
      _id: (from + i).toString(16).padStart(24, '0'),
      deviceName: `Meter ${String(from + i)}`,
      serialNumber: `SM${String(from + i).padStart(8, '0')}`,
      registeredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, 59 - i)).toISOString(),
      lastseen: null,
    }),
  );
}

export const json = (body: unknown, status = 200) => HttpResponse.json(body as object, { status });

/** A list and its count that never answer: the loading state. */
export const unanswered = (list: string): HttpHandler[] => [
  http.get(`${list}/count`, async () => { await delay('infinite'); }),
  http.get(list, async () => { await delay('infinite'); }),
];

/** Every read a detail page makes, with empty answers unless overridden. */
export function detailHandlers(record: WaterMeter = meter()): HttpHandler[] {
  const id = idOf(record._id);
  return [
    http.get(`/api/proxy/wmeters/consumption/${id}`, () => json([])),
    http.get(`/api/proxy/wmeters/critical/${id}`, () => json([])),
    http.get(`/api/proxy/wmeters/ble-activity/${id}`, () => json([])),
    http.get(`/api/proxy/wmeters/gateway-activity/${id}`, () => json([])),
    http.get(`/api/proxy/wmeters/shutdown-requests/${id}`, () => json({ status: null })),
    http.get(`/api/proxy/wmeters/${id}`, () => json(record)),
    ...emptyExtraReads(),
  ];
}
