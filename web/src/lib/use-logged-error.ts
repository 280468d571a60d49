import { useEffect } from 'react';

import { isCancelled } from './api.ts';

/** Dashboard load failures are only logged (spec §8); cancelled requests are ignored (§7). */
export function useLoggedError(error: unknown, what: string) {
  useEffect(() => {
    if (error !== undefined && !isCancelled(error)) console.error(`${what} failed to load`, error);
  }, [error, what]);
}
