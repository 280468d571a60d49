import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { AUDIT_FILTER_DEBOUNCE_MS } from '../../../lib/constants.ts';
import { useDraft } from './use-draft.ts';

describe('a filter draft', () => {
  beforeEach(() => { vi.useFakeTimers(); });
  afterEach(() => { vi.useRealTimers(); });

  const draftOf = (apply: (text: string) => void) =>
    renderHook(({ value }) => useDraft({ value, apply, same: (text, v) => text.trim() === v }), {
      initialProps: { value: '' },
    });

  it('keeps what is typed while its first letters come back applied, then takes a change made elsewhere', () => {
    const applied: string[] = [];
    const { result, rerender } = draftOf((text) => { applied.push(text); });

    act(() => { result.current.change('g'); });
    act(() => { result.current.change('ga'); });
    act(() => { vi.advanceTimersByTime(AUDIT_FILTER_DEBOUNCE_MS); });
    expect(applied).toEqual(['ga']);
    // A slow typist: the next letter comes before the URL brings 'ga' back.
    act(() => { result.current.change('gat'); });
    rerender({ value: 'ga' });
    expect(result.current.text).toBe('gat');
    act(() => { vi.advanceTimersByTime(AUDIT_FILTER_DEBOUNCE_MS); });
    expect(applied).toEqual(['ga', 'gat']);
    rerender({ value: 'gat' });
    expect(result.current.text).toBe('gat');

    // Clear filters, Back or a link: nothing is being typed, so the field follows.
    rerender({ value: 'user' });
    expect(result.current.text).toBe('user');
  });

  it('applies a choice at once, and then follows the applied value again', () => {
    const applied: string[] = [];
    const { result, rerender } = draftOf((text) => { applied.push(text); });
    act(() => { result.current.change('gate'); });
    act(() => { result.current.commit('gateway.edit'); });
    act(() => { vi.advanceTimersByTime(AUDIT_FILTER_DEBOUNCE_MS); });
    expect(applied).toEqual(['gateway.edit']);
    rerender({ value: 'gateway.edit' });
    rerender({ value: '' });
    expect(result.current.text).toBe('');
  });
});
