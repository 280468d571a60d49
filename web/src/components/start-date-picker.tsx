import Skeleton from '@mui/material/Skeleton';
import { lazy, Suspense } from 'react';

import type { StartDateProps } from './start-date-field.tsx';

const StartDateField = lazy(() => import('./start-date-field.tsx'));

/** The lists' start-date picker (spec §2); a chosen day lists what was registered up to its end. */
export function StartDatePicker(props: StartDateProps) {
  return (
    <Suspense fallback={<Skeleton variant="rounded" width={200} height={40} />}>
      <StartDateField {...props} />
    </Suspense>
  );
}

/**
 * The `start` query parameter for a chosen day: the next local midnight, so
 * that with `reverse=true` the list holds devices registered on or before it.
 */
export function startOfNextDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + 1).toISOString();
}
