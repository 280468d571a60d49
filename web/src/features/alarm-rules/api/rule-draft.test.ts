import { describe, expect, it } from 'vitest';

import { brokenFields, draftOf, inputOf, inputOfRule, type RuleDraft } from './rule-draft.ts';
import type { Rule } from './rule-types.ts';

const WEBHOOK_RULE: Rule = {
  id: '6b031854dbdeac91e41b6501',
  name: 'Ops webhook',
  enabled: true,
  match: { types: ['burst'], severities: ['critical'], devices: { scope: 'gateway', gatewayId: '6b031854dbdeac91e41b6334' } },
  channel: { kind: 'webhook', url: 'https://hooks.example.com/wm', secretSet: true },
  groupWindowSecs: 0,
  createdAt: '2026-11-02T08:00:00Z',
  updatedAt: '2026-11-02T08:00:00Z',
};

const draft = (changes: Partial<RuleDraft>): RuleDraft => ({ ...draftOf(null), name: 'Leaks', to: ['ops@example.com'], ...changes });

describe("an alarm rule's draft", () => {
  it('starts enabled, matching every alarm, by email, grouped over 60 seconds', () => {
    expect(inputOf(draftOf(null))).toEqual({
      name: '',
      enabled: true,
      match: { types: [], severities: [], devices: { scope: 'all' } },
      channel: { kind: 'email', to: [] },
      groupWindowSecs: 60,
    });
  });

  it("sends a rule back as it stands, without its secret, whether edited or as it is", () => {
    const unchanged = { ...inputOfRule(WEBHOOK_RULE), channel: { kind: 'webhook', url: 'https://hooks.example.com/wm' } };
    expect(inputOfRule(WEBHOOK_RULE)).toEqual(unchanged);
    expect(inputOf(draftOf(WEBHOOK_RULE))).toEqual(unchanged);
    expect(brokenFields(draftOf(WEBHOOK_RULE))).toEqual([]);
  });

  it('sends a new secret, the trimmed name and URL, and device ids in lower case', () => {
    const input = inputOf({
      ...draftOf(WEBHOOK_RULE),
      name: ' Ops ',
      url: ' https://x.example/h ',
      secret: 'a-new-secret-of-24-chars',
      scope: 'list',
      deviceIds: ['6B031854DBDEAC91E41B6318'],
    });
    expect(input).toMatchObject({
      name: 'Ops',
      match: { devices: { scope: 'list', ids: ['6b031854dbdeac91e41b6318'] } },
      channel: { kind: 'webhook', url: 'https://x.example/h', secret: 'a-new-secret-of-24-chars' },
    });
  });

  it('checks the name, the devices, the recipients and the group window', () => {
    expect(brokenFields(draft({}))).toEqual([]);
    expect(brokenFields(draft({ name: '  ', groupWindow: '3601' }))).toEqual(['name', 'groupWindowSecs']);
    expect(brokenFields(draft({ name: 'x'.repeat(101), groupWindow: '1.5' }))).toEqual(['name', 'groupWindowSecs']);
    expect(brokenFields(draft({ scope: 'list', deviceIds: [] }))).toEqual(['match.devices']);
    expect(brokenFields(draft({ scope: 'list', deviceIds: ['6b031854dbdeac91e41b631'] }))).toEqual(['match.devices']);
    expect(brokenFields(draft({ scope: 'gateway', gatewayId: '' }))).toEqual(['match.devices']);
    expect(brokenFields(draft({ to: [] }))).toEqual(['channel.to']);
    expect(brokenFields(draft({ to: ['not-an-address'] }))).toEqual(['channel.to']);
    expect(brokenFields(draft({ to: Array.from({ length: 21 }, (_, i) => `u${String(i)}@example.com`) }))).toEqual(['channel.to']);
    expect(brokenFields(draft({ groupWindow: '0' }))).toEqual([]);
  });

  it("checks a webhook's URL, and its secret when there is none stored or a new one is given", () => {
    const webhook = draft({ kind: 'webhook', url: 'ftp://example.com', secret: '' });
    expect(brokenFields(webhook)).toEqual(['channel.url', 'channel.secret']);
    expect(brokenFields({ ...webhook, url: 'http://10.0.0.5:8080/hook', secret: 'x'.repeat(16) })).toEqual([]);
    expect(brokenFields({ ...webhook, url: 'https://h.example', secret: 'x'.repeat(257) })).toEqual(['channel.secret']);
    expect(brokenFields({ ...webhook, url: 'https://h.example', secretSet: true })).toEqual([]);
    expect(brokenFields({ ...webhook, url: 'https://h.example', secretSet: true, secret: 'short' })).toEqual(['channel.secret']);
  });
});
