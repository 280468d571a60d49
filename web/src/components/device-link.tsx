// A device shown by its name (W-…, GTW-…), linking to its page; its id when the
// server knows no name (a deleted device). A click follows the link only, not
// the row's own action.
import Link from '@mui/material/Link';
import { Link as RouterLink } from 'react-router';

import type { Column } from './data-table/data-table.tsx';

export type DeviceKind = 'meter' | 'gateway';

const ROUTES: Record<DeviceKind, string> = { meter: '/water-meters', gateway: '/gateways' };

interface Props {
  id: string;
  name?: string | null | undefined;
  kind: DeviceKind;
}

export function DeviceLink({ id, name, kind }: Props) {
  return (
    <Link component={RouterLink} to={`${ROUTES[kind]}/${id}`} onClick={(event) => { event.stopPropagation(); }}>
      {name ?? id}
    </Link>
  );
}

/**
 * A table column of the device a row names: `id` and `name` read the row,
 * `fallback` is shown when the row names none.
 */
export function deviceColumn<R>(
  column: { field: string; header: string; minWidth?: number },
  kind: DeviceKind,
  id: (row: R) => string | null | undefined,
  name: (row: R) => string | null | undefined,
  fallback: string,
): Column<R> {
  return {
    ...column,
    value: (row) => name(row) ?? id(row) ?? fallback,
    render: (row) => {
      const rowId = id(row);
      return rowId ? <DeviceLink id={rowId} name={name(row)} kind={kind} /> : fallback;
    },
  };
}
