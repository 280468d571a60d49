import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import type { PageParams } from '../../lib/types.ts';
import { appendPage, byLastSeen, nextPageParams, usePagedList, type Pageable } from './use-paged-list.ts';

const device = (id: string, registeredAt: string, lastseen: string | null): Pageable => ({
  _id: id,
  registeredAt,
  lastseen,
});

describe('paging helpers', () => {
  it('asks for what was registered before the oldest shown, newest first', () => {
    const shown = [device('a', '2026-01-03T00:00:00Z', null), device('b', '2026-01-01T00:00:00Z', null)];
    expect(nextPageParams(shown)).toEqual({ max: 20, start: '2026-01-01T00:00:00Z', reverse: true });
  });

  it('drops duplicates, sorts the new page by lastseen and appends it', () => {
    const shown = [device('a', '2026-01-03T00:00:00Z', '2026-02-01T00:00:00Z')];
    const page = [
      device('a', '2026-01-03T00:00:00Z', '2026-02-01T00:00:00Z'),
      device('b', '2026-01-02T00:00:00Z', null),
      device('c', '2026-01-01T00:00:00Z', '2026-02-05T00:00:00Z'),
    ];
    expect(appendPage(shown, page).map((d) => d._id)).toEqual(['a', 'c', 'b']);
  });

  it('orders never-seen devices last', () => {
    const list = [device('n', 'x', null), device('s', 'x', '2026-01-01T00:00:00Z')].sort(byLastSeen);
    expect(list.map((d) => d._id)).toEqual(['s', 'n']);
  });
});

describe('usePagedList', () => {
  const full = (prefix: string, day: number) =>
    Array.from({ length: 20 }, (_, i) =>
      device(`${prefix}${String(i)}`, new Date(Date.UTC(2026, 0, day, 0, 0, 59 - i)).toISOString(), null),
    );

  it('loads the first page, then the next one before the oldest shown', async () => {
    const fetchPage = vi.fn((params: PageParams) => Promise.resolve(params.start ? [device('z', '2025-01-01T00:00:00Z', null)] : full('a', 5)));
    const { result } = renderHook(() => usePagedList(fetchPage, null));

    await waitFor(() => { expect(result.current.status).toBe('ready'); });
    expect(result.current.items).toHaveLength(20);
    expect(result.current.hasMore).toBe(true);
    expect(fetchPage).toHaveBeenLastCalledWith({ max: 20 });

    act(() => { result.current.loadMore(); });
    await waitFor(() => { expect(result.current.items).toHaveLength(21); });
    expect(fetchPage).toHaveBeenLastCalledWith({ max: 20, start: '2026-01-05T00:00:40.000Z', reverse: true });
    expect(result.current.hasMore).toBe(false);
  });

  it('reloads from the first page when the start day changes, ignoring the older answer', async () => {
    let release: (v: Pageable[]) => void = () => undefined;
    const slow = new Promise<Pageable[]>((resolve) => { release = resolve; });
    const fetchPage = vi.fn((params: PageParams) => (params.start ? Promise.resolve([device('d', '2026-01-01T00:00:00Z', null)]) : slow));
    const { result, rerender } = renderHook(({ day }) => usePagedList(fetchPage, day), {
      initialProps: { day: null as string | null },
    });

    rerender({ day: '2026-01-10' });
    await waitFor(() => { expect(result.current.status).toBe('ready'); });
    release(full('old', 1));
    await Promise.resolve();

    expect(result.current.items.map((d) => d._id)).toEqual(['d']);
    const last = fetchPage.mock.lastCall?.[0];
    expect(last?.reverse).toBe(true);
    expect(new Date(last?.start ?? '').getDate()).toBe(11);
  });

  it('starts over from the first page on reload, with the same start day', async () => {
    let round = 0;
    const fetchPage = vi.fn(() => Promise.resolve(full(`r${String(round)}-`, 5)));
    const { result } = renderHook(() => usePagedList(fetchPage, '2026-01-10'));
    await waitFor(() => { expect(result.current.items[0]?._id).toBe('r0-0'); });

    round = 1;
    act(() => { result.current.reload(); });
    await waitFor(() => { expect(result.current.items[0]?._id).toBe('r1-0'); });
    expect(result.current.items).toHaveLength(20);
    expect(fetchPage).toHaveBeenCalledTimes(2);
    expect(fetchPage.mock.calls[1]).toEqual(fetchPage.mock.calls[0]);
  });

  it('reports an error when the first page fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { result } = renderHook(() => usePagedList(() => Promise.reject(new Error('boom')), null));
    await waitFor(() => { expect(result.current.status).toBe('error'); });
    expect(result.current.items).toEqual([]);
  });
});
