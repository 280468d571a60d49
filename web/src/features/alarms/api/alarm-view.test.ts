import { describe, expect, it } from 'vitest';

import { apiParams, isFiltered, NO_FILTER, readView, writeView } from './alarm-view.ts';

const DEVICE = '6b031854dbdeac91e41b633c';

describe('the alarm view in the URL', () => {
  it('reads every filter, the order, and keeps their order of the allowed words', () => {
    const view = readView(
      new URLSearchParams(
        `status=cleared,active&severity=critical&type=leak,burst,leak&device=${DEVICE.toUpperCase()}&assignee=none&from=2026-11-01&to=2026-11-20&sort=severity&order=asc`,
      ),
    );
    expect(view).toEqual({
      status: ['active', 'cleared'],
      severity: ['critical'],
      type: ['leak', 'burst'],
      device: DEVICE,
      assignee: 'none',
      from: '2026-11-01',
      to: '2026-11-20',
      sort: 'severity',
      order: 'asc',
    });
  });

  it('drops what the API would refuse instead of sending it', () => {
    const view = readView(
      new URLSearchParams('status=open,active&severity=fatal&type=<b>,ok&device=42&from=yesterday&to=2026-13-45&sort=name&order=up'),
    );
    expect(view).toEqual({ ...NO_FILTER, status: ['active'], type: ['ok'], sort: 'raisedAt', order: 'desc' });
  });

  it('writes only what differs from the default, keeping the open alarm', () => {
    const view = { ...NO_FILTER, status: ['active' as const], sort: 'raisedAt' as const, order: 'desc' as const };
    const written = writeView(view, new URLSearchParams('alarm=abc&severity=major'));
    expect(written.toString()).toBe('alarm=abc&status=active');
    expect(readView(written)).toEqual(view);
  });

  it('asks the API for whole local days: `to` includes its day', () => {
    const params = apiParams({ ...readView(new URLSearchParams('from=2026-11-01&to=2026-11-20&status=active')) });
    expect(params).toEqual({
      sort: 'raisedAt',
      order: 'desc',
      status: 'active',
      from: new Date('2026-11-01T00:00:00').toISOString(),
      to: new Date('2026-11-21T00:00:00').toISOString(),
    });
  });

  it('knows when a view is filtered; the order alone is no filter', () => {
    expect(isFiltered(readView(new URLSearchParams('sort=severity')))).toBe(false);
    expect(isFiltered(readView(new URLSearchParams('assignee=u1')))).toBe(true);
  });
});
