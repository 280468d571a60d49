import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { appendUnseen, oldestTimestamp, useOlderPages } from './use-older-pages.ts';

interface Row {
  id: string;
  timestamp: string;
}

const row = (id: string, second: number): Row => ({ id, timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString() });
const keyOf = (r: Row) => r.id;
/** A full page (20 rows), newest first. */
const fullPage = () => Array.from({ length: 20 }, (_, i) => row(`r${String(i)}`, 59 - i));

describe('older-page helpers', () => {
  it('takes the oldest timestamp shown, as the server wrote it', () => {
    expect(oldestTimestamp([row('a', 5), { id: 'b', timestamp: '2026-01-01T00:00:01+00:00' }, row('c', 3)])).toBe(
      '2026-01-01T00:00:01+00:00',
    );
    expect(oldestTimestamp([])).toBeUndefined();
  });

  it('appends only the rows not shown yet', () => {
    expect(appendUnseen([row('a', 2)], [row('a', 2), row('b', 1)], keyOf).map(keyOf)).toEqual(['a', 'b']);
  });
});

describe('useOlderPages', () => {
  it('loads the newest page, then the rows older than the oldest shown, without duplicates', async () => {
    const fetchPage = vi.fn((start: string | undefined) => Promise.resolve(start ? [row('r19', 40), row('old', 1)] : fullPage()));
    const { result } = renderHook(() => useOlderPages(fetchPage, keyOf, 'a'));

    await waitFor(() => { expect(result.current.status).toBe('ready'); });
    expect(fetchPage).toHaveBeenLastCalledWith(undefined);
    expect(result.current.hasMore).toBe(true);

    act(() => { result.current.loadMore(); });
    await waitFor(() => { expect(result.current.items).toHaveLength(21); });
    expect(fetchPage).toHaveBeenLastCalledWith(row('r19', 40).timestamp);
    expect(result.current.items.at(-1)?.id).toBe('old');
    expect(result.current.hasMore).toBe(false);
    expect(result.current.loadingMore).toBe(false);
  });

  it('starts over on a new reset key, ignoring the answer for the old one', async () => {
    let release: (rows: Row[]) => void = () => undefined;
    const slow = new Promise<Row[]>((resolve) => { release = resolve; });
    const fetchPage = vi.fn<(start: string | undefined) => Promise<Row[]>>().mockReturnValueOnce(slow).mockResolvedValue([row('new', 9)]);
    const { result, rerender } = renderHook(({ key }) => useOlderPages(fetchPage, keyOf, key), { initialProps: { key: 'a' } });

    rerender({ key: 'b' });
    await waitFor(() => { expect(result.current.status).toBe('ready'); });
    release(fullPage());
    await act(() => Promise.resolve());

    expect(result.current.items.map(keyOf)).toEqual(['new']);
    expect(fetchPage).toHaveBeenCalledTimes(2);
  });

  it('ignores a cancelled request', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { result } = renderHook(() => useOlderPages(() => Promise.reject(new DOMException('Aborted', 'AbortError')), keyOf, 'a'));
    await act(() => Promise.resolve());
    expect(result.current.status).toBe('loading');
    expect(log).not.toHaveBeenCalled();
  });

  it('logs a failed first page and reports the error', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { result } = renderHook(() => useOlderPages(() => Promise.reject(new Error('boom')), keyOf, 'a'));
    await waitFor(() => { expect(result.current.status).toBe('error'); });
    expect(result.current.items).toEqual([]);
    expect(log).toHaveBeenCalled();
  });
});
