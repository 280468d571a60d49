// What an admin does to the rows of a list (users, API keys, alarm rules):
// the row being changed waits (`working`), a change asked about first waits
// for its confirmation (`pending`), and a refusal is the page's alert
// (`error`) until closed; a cancelled request says nothing.
import { useState } from 'react';

import { isCancelled } from './api.ts';

/** `problem` words a refusal; `P` is what a question asks about (a row, or a row and a change). */
export function useRowActions<P>(problem: (error: unknown) => string) {
  const [pending, setPending] = useState<P | null>(null);
  const [working, setWorking] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  /** Runs one change of the row `id`; true when it was made. */
  const run = async (id: string, change: () => Promise<unknown>): Promise<boolean> => {
    setError(null);
    setWorking(id);
    try {
      await change();
      return true;
    } catch (failure) {
      if (!isCancelled(failure)) setError(problem(failure));
      return false;
    } finally {
      setWorking(null);
    }
  };

  /** Does what the question asked about, then closes it. */
  const confirm = async (act: (asked: P) => Promise<unknown>) => {
    if (pending === null) return;
    await act(pending);
    setPending(null);
  };

  return {
    /** What waits for its confirmation. */
    pending,
    ask: (asked: P) => {
      setPending(asked);
    },
    cancel: () => {
      setPending(null);
    },
    confirm,
    run,
    /** The id of the row being changed. */
    working,
    error,
    clearError: () => {
      setError(null);
    },
  };
}
