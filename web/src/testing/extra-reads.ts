// Empty answers to the alarm and valve-command reads that pages beside the
// Alarms screen make (the shell's count, a device's alarms, a meter's
// timeline), for the tests of every feature.
import { http, HttpResponse, type HttpHandler } from 'msw';

/** Empty answers to every alarm and valve-command read a page makes. */
export function noAlarms(): HttpHandler[] {
  return [
    http.get('/api/alarms', () => HttpResponse.json({ items: [], next: null })),
    http.get('/api/alarms/counts', () => HttpResponse.json({ active: 0, acknowledged: 0, cleared: 0, closed: 0 })),
    http.get('/api/alarms/assignees', () => HttpResponse.json([])),
    http.get('/api/valve-commands', () => HttpResponse.json([])),
  ];
}
