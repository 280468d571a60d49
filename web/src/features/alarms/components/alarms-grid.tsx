// The alarm table on the MUI DataGrid: paged and sorted by the server (keyset
// cursors, so the total is not known: the grid only offers the next page when
// there is one), rows selectable for bulk acknowledge, a click opens the
// alarm's panel.
import {
  DataGrid,
  type GridColDef,
  type GridPaginationModel,
  type GridRowSelectionModel,
  type GridSortModel,
} from '@mui/x-data-grid';
import { frFR } from '@mui/x-data-grid/locales';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { DeviceLink } from '../../../components/device-link.tsx';
import { useTimestamp } from '../../../components/use-timestamp.ts';
import type { Actor, Alarm } from '../api/alarm-types.ts';
import type { Order, SortKey } from '../api/alarm-view.ts';
import { useAlarmWords } from '../hooks/use-alarm-words.ts';
import { PAGE_SIZES, type GridPreferences } from '../hooks/use-grid-preferences.ts';
import { SeverityChip, StatusChip } from './alarm-chips.tsx';
import { AlarmsToolbar } from './alarms-toolbar.tsx';

interface Props {
  rows: readonly Alarm[];
  loading: boolean;
  page: number;
  rowCount: number;
  hasNextPage: boolean;
  onPage: (page: number) => void;
  sort: { sort: SortKey; order: Order };
  onSort: (sort: SortKey, order: Order) => void;
  /** Null: rows cannot be selected (a viewer's grid). */
  selection: readonly string[] | null;
  onSelection: (ids: string[]) => void;
  onOpen: (id: string) => void;
  preferences: GridPreferences;
  onPreferences: (patch: Partial<GridPreferences>) => void;
  emptyText: string;
}

const SORTABLE = new Set<string>(['raisedAt', 'severity']);

function useColumns(): GridColDef<Alarm>[] {
  const { t } = useTranslation('alarms');
  const words = useAlarmWords();
  const timestamp = useTimestamp();
  return useMemo(() => {
    const when = (value: string | null) => (value ? timestamp(value) : '');
    const who = (actor: Actor | null) => actor?.name ?? '';
    const column = (field: string, def: Partial<GridColDef<Alarm>>): GridColDef<Alarm> => ({
      field,
      headerName: t(`columns.${field}` as 'columns.id'),
      sortable: SORTABLE.has(field),
      flex: 1,
      minWidth: 120,
      ...def,
    });
    return [
      column('severity', { renderCell: ({ row }) => <SeverityChip severity={row.severity} />, valueGetter: (_v, row) => words.severity(row.severity) }),
      column('status', { renderCell: ({ row }) => <StatusChip status={row.status} />, valueGetter: (_v, row) => words.status(row.status) }),
      column('type', { valueGetter: (_v, row) => words.type(row.type) }),
      column('device', {
        minWidth: 150,
        valueGetter: (_v, row) => row.deviceName,
        renderCell: ({ row }) => (
          <DeviceLink id={row.deviceId} name={row.deviceName} kind={row.deviceKind === 'gateway' ? 'gateway' : 'meter'} />
        ),
      }),
      column('raisedAt', { minWidth: 150, valueGetter: (_v, row) => timestamp(row.raisedAt) }),
      column('assignee', { valueGetter: (_v, row) => who(row.assignee) }),
      column('raisedBy', { valueGetter: (_v, row) => who(row.raisedBy) }),
      column('acknowledgedAt', { minWidth: 150, valueGetter: (_v, row) => when(row.acknowledgedAt) }),
      column('clearedAt', { minWidth: 150, valueGetter: (_v, row) => when(row.clearedAt) }),
      column('closedAt', { minWidth: 150, valueGetter: (_v, row) => when(row.closedAt) }),
      column('updatedAt', { minWidth: 150, valueGetter: (_v, row) => timestamp(row.updatedAt) }),
      column('id', { minWidth: 220 }),
    ];
  }, [t, words, timestamp]);
}

/** The selected ids: a header "select all" selects every row of the page. */
function selectedIds(model: GridRowSelectionModel, rows: readonly Alarm[]): string[] {
  if (model.type === 'include') return [...model.ids].map(String);
  return rows.map((row) => row.id).filter((id) => !model.ids.has(id));
}

export function AlarmsGrid(props: Props) {
  const { t, i18n } = useTranslation('alarms');
  const columns = useColumns();
  const { preferences, onPreferences, rows, selection } = props;
  // Controlled models keep their identity between renders: a new sort model
  // would read to the grid as a new sort, which sends it back to page one.
  const { sort, order } = props.sort;
  const sortModel = useMemo<GridSortModel>(() => [{ field: sort, sort: order }], [sort, order]);
  const paginationModel = useMemo(() => ({ page: props.page, pageSize: preferences.pageSize }), [props.page, preferences.pageSize]);
  const selectionModel = useMemo<GridRowSelectionModel>(() => ({ type: 'include', ids: new Set(selection ?? []) }), [selection]);
  const paginationMeta = useMemo(() => ({ hasNextPage: props.hasNextPage }), [props.hasNextPage]);
  const onSortModelChange = (model: GridSortModel) => {
    const [first] = model;
    if (first && SORTABLE.has(first.field)) props.onSort(first.field as SortKey, first.sort === 'asc' ? 'asc' : 'desc');
    // A third click on a header removes the sort: back to newest first.
    else props.onSort('raisedAt', 'desc');
  };
  const onPaginationModelChange = (model: GridPaginationModel) => {
    if (model.pageSize !== preferences.pageSize) onPreferences({ pageSize: model.pageSize });
    else props.onPage(model.page);
  };
  const french = i18n.language.startsWith('fr');
  return (
    <DataGrid<Alarm>
      rows={rows}
      columns={columns}
      getRowId={(row) => row.id}
      aria-label={t('gridLabel')}
      loading={props.loading}
      paginationMode="server"
      sortingMode="server"
      filterMode="server"
      disableColumnFilter
      rowCount={props.rowCount}
      paginationMeta={paginationMeta}
      paginationModel={paginationModel}
      onPaginationModelChange={onPaginationModelChange}
      pageSizeOptions={PAGE_SIZES}
      sortModel={sortModel}
      onSortModelChange={onSortModelChange}
      sortingOrder={['desc', 'asc']}
      columnVisibilityModel={preferences.columns}
      onColumnVisibilityModelChange={(columnsModel) => { onPreferences({ columns: columnsModel }); }}
      density={preferences.density}
      onDensityChange={(density) => { onPreferences({ density }); }}
      checkboxSelection={selection !== null}
      keepNonExistentRowsSelected
      rowSelectionModel={selectionModel}
      onRowSelectionModelChange={(model) => { props.onSelection(selectedIds(model, rows)); }}
      disableRowSelectionOnClick
      onRowClick={({ row }: { row: Alarm }) => { props.onOpen(row.id); }}
      onCellKeyDown={({ row, field }: { row: Alarm; field: string }, event) => {
        if (event.key === 'Enter' && field !== '__check__') {
          event.defaultMuiPrevented = true;
          props.onOpen(row.id);
        }
      }}
      showToolbar
      slots={{ toolbar: AlarmsToolbar }}
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
