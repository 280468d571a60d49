// Audit trail (/admin/audit, admins only; docs/administration.md, Audit
// screen): every change and refused attempt, newest first, in a grid paged
// by the server; the filter and the page in the URL, so that a link
// reproduces the view; the filter's entries as CSV. Another role is told it
// may not, and nothing is asked.
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { AdminList, AdminPage } from '../../../components/admin-page.tsx';
import { CsvButton } from '../../../components/csv-download-button.tsx';
import { httpStatus } from '../../../lib/api.ts';
import { useLoggedError } from '../../../lib/use-logged-error.ts';
import { useAuditCsvMutation, useAuditEntriesQuery, type AuditEntry } from '../api/audit-api.ts';
import { apiParams, filterParams, isFiltered } from '../api/audit-view.ts';
import { useAuditView } from '../hooks/use-audit-view.ts';
import { useTimeErrors } from '../hooks/use-time-errors.ts';
import { AuditEntryDialog } from './audit-entry-dialog.tsx';
import { AuditFilters } from './audit-filters.tsx';
import { AuditGrid } from './audit-grid.tsx';

export default function AuditPage() {
  const { t } = useTranslation('audit');
  return (
    <AdminPage title={t('title')} permission="readAudit" notAllowed={t('notAllowed')}>
      <AuditTrail />
    </AdminPage>
  );
}

function AuditTrail() {
  const { t } = useTranslation('audit');
  const { view, filter, goTo } = useAuditView();
  const params = useMemo(() => apiParams(view), [view]);
  const { data, currentData, error, isFetching } = useAuditEntriesQuery(params, { refetchOnMountOrArgChange: true });
  const [download, { isLoading: downloading }] = useAuditCsvMutation();
  const [open, setOpen] = useState<AuditEntry | null>(null);
  const timeErrors = useTimeErrors(error, view);
  useLoggedError(error, 'audit trail');

  // A refused filter (400) is said by the grid and the time fields, not as a failed load.
  const refusedFilter = httpStatus(error) === 400;
  const emptyText = refusedFilter ? t('invalidFilter') : isFiltered(view) ? t('emptyFiltered') : t('empty');
  return (
    <AdminList
      error={refusedFilter ? undefined : error}
      notAllowed={t('notAllowed')}
      loadFailed={t('loadFailed')}
      toolbar={
        <AuditFilters filter={view} onFilter={filter} errors={timeErrors}>
          <CsvButton
            download={() => download(filterParams(view)).unwrap()}
            loading={downloading}
            disabled={refusedFilter}
          />
        </AuditFilters>
      }
      list={
        <AuditGrid
          rows={currentData?.entries ?? []}
          loading={isFetching}
          page={view.page}
          pageSize={view.max}
          // The last total known while the next page loads; unknown (-1)
          // before the first answer, so that the grid keeps the URL's page.
          rowCount={refusedFilter ? 0 : (data?.total ?? -1)}
          onPage={goTo}
          onOpen={setOpen}
          emptyText={emptyText}
        />
      }
    >
      <AuditEntryDialog entry={open} onClose={() => { setOpen(null); }} />
    </AdminList>
  );
}
