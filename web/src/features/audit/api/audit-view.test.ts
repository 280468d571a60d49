import { describe, expect, it } from 'vitest';

import { apiParams, deviceTarget, filterParams, readView, writeView } from './audit-view.ts';

describe("the audit screen's view in its URL", () => {
  it('reads the filter, the page and its size, and drops what the API would refuse', () => {
    const view = readView(new URLSearchParams('actor=%20Bob%20&action=meter&outcome=forbidden&from=2026-11-01&page=3&max=100&other=1'));
    expect(view).toEqual({ actor: 'Bob', action: 'meter', target: '', outcome: 'forbidden', from: '2026-11-01', to: '', page: 3, max: 100 });
    expect(readView(new URLSearchParams('page=0&max=500&outcome=DROP%20TABLE'))).toMatchObject({ page: 1, max: 50, outcome: '' });
    expect(readView(new URLSearchParams('page=-2&max=abc'))).toMatchObject({ page: 1, max: 50 });
  });

  it('writes only what is set, keeping the other entries', () => {
    const view = readView(new URLSearchParams('action=user&page=2'));
    expect(writeView({ ...view, page: 1 }, new URLSearchParams('keep=1')).toString()).toBe('keep=1&action=user');
    expect(writeView({ ...view, max: 25 }).toString()).toBe('action=user&page=2&max=25');
  });

  it('sends the filter with the page, and the export the filter alone', () => {
    const view = readView(new URLSearchParams('target=t1&outcome=ok&page=2'));
    expect(apiParams(view)).toEqual({ target: 't1', outcome: 'ok', page: '2', max: '50' });
    expect(filterParams(view)).toEqual({ target: 't1', outcome: 'ok' });
  });

  it("links a device's target, and only a device's", () => {
    const id = '6b031854dbdeac91e41b633c';
    expect(deviceTarget('meter.edit', id)).toBe('meter');
    expect(deviceTarget('meter.thresholds', id)).toBe('meter');
    expect(deviceTarget('gateway.delete', id.toUpperCase())).toBe('gateway');
    expect(deviceTarget('user.disable', id)).toBeNull();
    expect(deviceTarget('shutdown.confirm', id)).toBeNull();
    expect(deviceTarget('meter.edit', 'not-an-id')).toBeNull();
    expect(deviceTarget('meterish.edit', id)).toBeNull();
  });
});
