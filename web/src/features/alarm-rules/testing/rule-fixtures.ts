// Alarm rules and deliveries shaped like `/api/admin/rules` answers, and a
// fake server holding them, for the alarm rules tests.
import { http, HttpResponse } from 'msw';

import { server } from '../../../testing/msw-server.ts';
import type { Delivery, Rule, RuleInput } from '../api/rule-types.ts';

export function rule(overrides: Partial<Rule> = {}): Rule {
  return {
    id: '6b031854dbdeac91e41b6501',
    name: 'Leaks to the night shift',
    enabled: true,
    match: { types: ['leak', 'continuous-flow'], severities: ['critical', 'major'], devices: { scope: 'all' } },
    channel: { kind: 'email', to: ['night@example.com', 'ops@example.com'] },
    groupWindowSecs: 60,
    createdAt: '2026-11-02T08:00:00Z',
    updatedAt: '2026-11-02T08:00:00Z',
    ...overrides,
  };
}

export const WEBHOOK_RULE = rule({
  id: '6b031854dbdeac91e41b6502',
  name: 'Bursts to the SCADA',
  enabled: false,
  match: { types: [], severities: [], devices: { scope: 'gateway', gatewayId: '6b031854dbdeac91e41b6334' } },
  channel: { kind: 'webhook', url: 'https://scada.example.com/hooks/wmeter', secretSet: true },
  groupWindowSecs: 0,
});

export function delivery(overrides: Partial<Delivery> = {}): Delivery {
  return {
    id: 'd-1',
    ruleId: WEBHOOK_RULE.id,
    createdAt: '2026-11-20T10:00:00Z',
    status: 'delivered',
    test: false,
    alarmCount: 3,
    attempts: [{ at: '2026-11-20T10:00:01Z', outcome: 'ok', statusCode: 204, latencyMs: 87, error: null }],
    reason: null,
    nextAttemptAt: null,
    ...overrides,
  };
}

export interface Served {
  /** How many times the list was read. */
  reads: number;
  /** Every change's method, path and body. */
  changes: { method: string; path: string; body: unknown }[];
}

/**
 * The list and the changes, which alter `rules`, and each rule's
 * `deliveries`; `refuse` answers a POST or PUT instead, when given.
 */
export function serveRules(rules: Rule[], deliveries: Record<string, Delivery[]> = {}, refuse?: () => Response): Served {
  const served: Served = { reads: 0, changes: [] };
  const record = async (request: Request) => {
    const body: unknown = request.headers.get('content-type')?.includes('json') ? await request.json() : null;
    served.changes.push({ method: request.method, path: new URL(request.url).pathname, body });
    return body;
  };
  const stored = (id: string, input: RuleInput): Rule => {
    const { channel } = input;
    return {
      ...rule({ id }),
      ...input,
      channel: channel.kind === 'email' ? channel : { kind: 'webhook', url: channel.url, secretSet: true },
    };
  };
  server.use(
    http.get('/api/admin/rules', () => {
      served.reads += 1;
      return HttpResponse.json({ items: [...rules].sort((a, b) => a.name.localeCompare(b.name)) });
    }),
    http.post('/api/admin/rules', async ({ request }) => {
      const input = (await record(request)) as RuleInput;
      if (refuse) return refuse();
      const created = stored(`new-${String(rules.length)}`, input);
      rules.push(created);
      return HttpResponse.json(created, { status: 201 });
    }),
    http.put('/api/admin/rules/:id', async ({ request, params }) => {
      const input = (await record(request)) as RuleInput;
      if (refuse) return refuse();
      const index = rules.findIndex((each) => each.id === params.id);
      const changed = stored(String(params.id), input);
      rules[index] = changed;
      return HttpResponse.json(changed);
    }),
    http.delete('/api/admin/rules/:id', async ({ request, params }) => {
      await record(request);
      rules.splice(rules.findIndex((each) => each.id === params.id), 1);
      return new HttpResponse(null, { status: 204 });
    }),
    http.post('/api/admin/rules/:id/test', async ({ request, params }) => {
      await record(request);
      const id = String(params.id);
      const queued = delivery({ id: 'd-test', ruleId: id, test: true, alarmCount: 0, status: 'pending', attempts: [] });
      deliveries[id] = [queued, ...(deliveries[id] ?? [])];
      return HttpResponse.json({ deliveryId: queued.id }, { status: 202 });
    }),
    http.get('/api/admin/rules/:id/deliveries', ({ params }) => HttpResponse.json({ items: deliveries[String(params.id)] ?? [] })),
  );
  return served;
}
