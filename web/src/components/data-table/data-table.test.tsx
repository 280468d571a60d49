import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { renderWithProviders } from '../../testing/render.tsx';
import { DataTable } from './data-table.tsx';

interface Row {
  id: string;
  name: string;
}

describe('DataTable', () => {
  it('renders every row as text and reports a row click', async () => {
    const onRowClick = vi.fn();
    const rows: Row[] = [
      { id: 'a', name: '<img src=x onerror=alert(1)>' },
      { id: 'b', name: 'second' },
    ];
    renderWithProviders(
      <DataTable
        label="things"
        rows={rows}
        rowId={(r) => r.id}
        columns={[{ field: 'name', header: 'Name' }]}
        onRowClick={onRowClick}
        emptyText="none"
      />,
    );

    const grid = await screen.findByRole('grid', { name: 'things' });
    expect(within(grid).getByText('<img src=x onerror=alert(1)>')).toBeInTheDocument();
    expect(grid.querySelector('img')).toBeNull();
    await userEvent.click(within(grid).getByText('second'));
    expect(onRowClick).toHaveBeenCalledWith(rows[1]);
  });

  it('says so when there are no rows', async () => {
    renderWithProviders(
      <DataTable label="things" rows={[]} rowId={(r: Row) => r.id} columns={[{ field: 'name', header: 'Name' }]} emptyText="none" />,
    );
    expect(await screen.findByText('none')).toBeInTheDocument();
  });
});

describe('DataTable from the keyboard', () => {
  it('opens a row with Enter on one of its cells', async () => {
    const onRowClick = vi.fn();
    const rows: Row[] = [{ id: 'a', name: 'first' }];
    renderWithProviders(
      <DataTable label="things" rows={rows} rowId={(r) => r.id} columns={[{ field: 'name', header: 'Name' }]} onRowClick={onRowClick} emptyText="none" />,
    );
    const cell = await screen.findByRole('gridcell', { name: 'first' });
    cell.focus();
    await userEvent.keyboard('{Enter}');
    expect(onRowClick).toHaveBeenCalledWith(rows[0]);
  });
});
