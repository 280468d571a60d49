// A short list as a labelled table (the users, API keys and alarm rules of
// the admin screens; the problems an import found): a header row, then a
// row per item, or one row saying there is none. It scrolls sideways in a
// region the keyboard can reach.
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { ReactNode } from 'react';

interface Props<T> {
  label: string;
  headers: readonly string[];
  items: readonly T[];
  /** The text of the one row of an empty table. */
  empty: string;
  /** An item's `TableRow`, with its key. */
  row: (item: T) => ReactNode;
}

export function ListTable<T>({ label, headers, items, empty, row }: Props<T>) {
  return (
    <TableContainer component={Paper} variant="outlined" tabIndex={0} role="region" aria-label={label}>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            {headers.map((header) => (
              <TableCell key={header}>{header}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {items.length === 0 ? (
            <TableRow>
              <TableCell colSpan={headers.length}>{empty}</TableCell>
            </TableRow>
          ) : (
            items.map(row)
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
