// Tables of the detail and overview screens. The grid is loaded on first use.
import Skeleton from '@mui/material/Skeleton';
import { lazy, Suspense, type ReactNode } from 'react';

export interface Column<R> {
  field: string;
  header: string;
  /** The cell's text (also what a screen reader hears); defaults to `row[field]`. */
  value?: (row: R) => string | number | null;
  /** A custom cell, e.g. a coloured RSSI. Rendered as React, never as HTML. */
  render?: (row: R) => ReactNode;
  flex?: number;
  minWidth?: number;
  /** Long text (a sentence) that wraps; the rows then grow to fit it. */
  wrap?: boolean;
}

export interface DataTableProps<R> {
  label: string;
  rows: readonly R[];
  columns: readonly Column<R>[];
  rowId: (row: R) => string;
  onRowClick?: (row: R) => void;
  emptyText: string;
}

const DataGridTable = lazy(() => import('./data-grid-table.tsx'));

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the lazy grid is generic over rows
export function DataTable<R extends Record<string, any>>(props: DataTableProps<R>) {
  return (
    <Suspense fallback={<Skeleton variant="rounded" height={120} />}>
      <DataGridTable {...(props as DataTableProps<Record<string, unknown>>)} />
    </Suspense>
  );
}
