// The audit entries on the MUI DataGrid, paged by the server (page and size
// from the URL, the row count from `total`), newest first: the server's only
// order. A click on a row, or Enter on one of its cells, opens the entry.
import { DataGrid, type GridColDef, type GridPaginationModel } from '@mui/x-data-grid';
import { frFR } from '@mui/x-data-grid/locales';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { DeviceLink } from '../../../components/device-link.tsx';
import { useTimestamp } from '../../../components/use-timestamp.ts';
import { AUDIT_PAGE_SIZES } from '../../../lib/constants.ts';
import type { AuditEntry } from '../api/audit-api.ts';
import { deviceTarget } from '../api/audit-view.ts';
import { useAuditWords } from '../hooks/use-audit-words.ts';
import { OutcomeChip } from './outcome-chip.tsx';

interface Props {
  rows: readonly AuditEntry[];
  loading: boolean;
  /** From 1. */
  page: number;
  pageSize: number;
  /** Entries of the whole filter; -1 while not known. */
  rowCount: number;
  onPage: (page: number, pageSize: number) => void;
  onOpen: (entry: AuditEntry) => void;
  emptyText: string;
}

/** An entry's target: its device's page when it is a device. */
export function AuditTarget({ entry }: { entry: AuditEntry }) {
  const kind = deviceTarget(entry.action, entry.target);
  return kind ? <DeviceLink id={entry.target} kind={kind} /> : entry.target;
}

function useColumns(): GridColDef<AuditEntry>[] {
  const { t } = useTranslation('audit');
  const words = useAuditWords();
  const timestamp = useTimestamp();
  return useMemo(() => {
    const column = (field: string, def: Partial<GridColDef<AuditEntry>>): GridColDef<AuditEntry> => ({
      field,
      headerName: t(`columns.${field}` as 'columns.at'),
      sortable: false,
      flex: 1,
      minWidth: 120,
      ...def,
    });
    return [
      column('at', { minWidth: 150, valueGetter: (_v, row) => timestamp(row.at) }),
      column('actor', { valueGetter: (_v, row) => words.actor(row) }),
      column('role', { minWidth: 100, valueGetter: (_v, row) => words.role(row.role) }),
      column('action', { minWidth: 160 }),
      column('target', { minWidth: 220, renderCell: ({ row }) => <AuditTarget entry={row} /> }),
      column('outcome', {
        minWidth: 140,
        valueGetter: (_v, row) => words.outcome(row.outcome),
        renderCell: ({ row }) => <OutcomeChip outcome={row.outcome} />,
      }),
      column('sourceIp', { minWidth: 120 }),
      column('detail', { flex: 2, minWidth: 200 }),
    ];
  }, [t, words, timestamp]);
}

export function AuditGrid(props: Props) {
  const { t, i18n } = useTranslation('audit');
  const columns = useColumns();
  const { page, pageSize, onPage, onOpen } = props;
  // A controlled model keeps its identity between renders: a new one would
  // read to the grid as a change.
  const paginationModel = useMemo(() => ({ page: page - 1, pageSize }), [page, pageSize]);
  const onPaginationModelChange = (model: GridPaginationModel) => {
    if (model.pageSize !== pageSize) onPage(1, model.pageSize);
    else onPage(model.page + 1, pageSize);
  };
  const french = i18n.language.startsWith('fr');
  return (
    <DataGrid<AuditEntry>
      rows={props.rows}
      columns={columns}
      getRowId={(row) => row.id}
      aria-label={t('gridLabel')}
      loading={props.loading}
      paginationMode="server"
      sortingMode="server"
      filterMode="server"
      disableColumnFilter
      disableColumnSorting
      rowCount={props.rowCount}
      paginationModel={paginationModel}
      onPaginationModelChange={onPaginationModelChange}
      pageSizeOptions={AUDIT_PAGE_SIZES}
      disableRowSelectionOnClick
      onRowClick={({ row }: { row: AuditEntry }) => { onOpen(row); }}
      onCellKeyDown={({ row }: { row: AuditEntry }, event) => {
        // Enter on the target's link follows the link.
        if (event.key === 'Enter' && !(event.target instanceof HTMLAnchorElement)) {
          event.defaultMuiPrevented = true;
          onOpen(row);
        }
      }}
      autoHeight
      // At most 100 rows: every row stays in the DOM, for screen readers too.
      disableVirtualization
      localeText={{
        ...(french ? frFR.components.MuiDataGrid.defaultProps.localeText : {}),
        noRowsLabel: props.emptyText,
      }}
      sx={{ '& .MuiDataGrid-row': { cursor: 'pointer' } }}
    />
  );
}
