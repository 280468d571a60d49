// A filter field's text while it is typed: applied AUDIT_FILTER_DEBOUNCE_MS
// after the last change (or at once when chosen from a list), and replaced
// when the applied value changes elsewhere (a link, Back, Clear filters).
// While a change waits to be applied, what is typed stays: a slow typist's
// first letters, applied and coming back through the URL, must not wipe
// the letters typed since.
import { useEffect, useRef, useState } from 'react';

import { AUDIT_FILTER_DEBOUNCE_MS } from '../../../lib/constants.ts';

interface Options {
  /** The applied value (the URL's). */
  value: string;
  /** Applies a text. */
  apply: (text: string) => void;
  /** The text a value is shown as; the value itself by default. */
  show?: (value: string) => string;
  /** Whether `text` already stands for `value` (so a sync leaves it as typed). */
  same: (text: string, value: string) => boolean;
}

export function useDraft({ value, apply, show = (v) => v, same }: Options) {
  const [text, setText] = useState(() => show(value));
  const [applied, setApplied] = useState(value);
  const [typing, setTyping] = useState(false);
  if (applied !== value) {
    setApplied(value);
    if (!typing && !same(text, value)) setText(show(value));
  }
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(
    () => () => {
      clearTimeout(timer.current);
    },
    [],
  );
  return {
    text,
    /** Typed: applied once the typing stops. */
    change: (next: string) => {
      setText(next);
      setTyping(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        setTyping(false);
        apply(next);
      }, AUDIT_FILTER_DEBOUNCE_MS);
    },
    /** Chosen: applied at once. */
    commit: (next: string) => {
      setText(next);
      setTyping(false);
      clearTimeout(timer.current);
      apply(next);
    },
  };
}
