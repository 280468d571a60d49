// The MUI DataGrid behind DataTable; loaded lazily (it is ~230 kB gzipped).
import Box from '@mui/material/Box';
import { DataGrid, type GridColDef, type GridValidRowModel } from '@mui/x-data-grid';

import type { DataTableProps } from './data-table.tsx';

export default function DataGridTable<R extends GridValidRowModel>(props: DataTableProps<R>) {
  const columns = props.columns.map((column) => {
    const def: GridColDef<R> = {
      field: column.field,
      headerName: column.header,
      flex: column.flex ?? 1,
      minWidth: column.minWidth ?? 100,
      sortable: false,
    };
    const { render, value } = column;
    if (render) def.renderCell = (params) => render(params.row);
    else if (column.wrap) {
      def.renderCell = (params) => (
        <Box component="span" sx={{ whiteSpace: 'normal', overflowWrap: 'anywhere', lineHeight: 1.4, py: 0.75 }}>
          {String(params.formattedValue ?? '')}
        </Box>
      );
    }
    if (value) def.valueGetter = (_value, row) => value(row);
    return def;
  });
  const wraps = props.columns.some((column) => column.wrap);
  const onRowClick = props.onRowClick;
  return (
    <DataGrid<R>
      rows={props.rows}
      columns={columns}
      getRowId={props.rowId}
      {...(wraps ? { getRowHeight: () => 'auto' as const } : {})}
      {...(onRowClick
        ? {
            onRowClick: (params: { row: R }) => {
              onRowClick(params.row);
            },
            // Keyboard users open a row with Enter on any of its cells.
            onCellKeyDown: (params: { row: R }, event: { key: string; defaultMuiPrevented?: boolean }) => {
              if (event.key === 'Enter') {
                event.defaultMuiPrevented = true;
                onRowClick(params.row);
              }
            },
          }
        : {})}
      aria-label={props.label}
      density="compact"
      autoHeight
      hideFooter
      disableColumnMenu
      disableRowSelectionOnClick
      disableVirtualization
      localeText={{ noRowsLabel: props.emptyText }}
      sx={onRowClick ? { '& .MuiDataGrid-row': { cursor: 'pointer' } } : {}}
    />
  );
}
