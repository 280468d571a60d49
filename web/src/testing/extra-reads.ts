// Empty answers to the reads pages make beyond the spec's (the shell's
// alarm count, a device's alarms, a meter's valve timeline and consumption
// chart), for the tests of every feature.
import { http, HttpResponse, type HttpHandler } from 'msw';

/** Empty answers to every alarm, valve-command and rollup read a page makes. */
export function emptyExtraReads(): HttpHandler[] {
  return [
    http.get('/api/alarms', () => HttpResponse.json({ items: [], next: null })),
    http.get('/api/alarms/counts', () => HttpResponse.json({ active: 0, acknowledged: 0, cleared: 0, closed: 0 })),
    http.get('/api/alarms/assignees', () => HttpResponse.json([])),
    http.get('/api/valve-commands', () => HttpResponse.json([])),
    http.get('/api/rollups', ({ request }) => {
      const params = new URL(request.url).searchParams;
      const [from, to] = [params.get('from') ?? '', params.get('to') ?? ''];
      return HttpResponse.json({ scope: 'meter', bucket: params.get('bucket'), timeZone: 'UTC', from, to, totalMl: 0, points: [] });
    }),
  ];
}
