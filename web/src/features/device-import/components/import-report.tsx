// A check's or an import's report: how many devices were registered (an
// import), the rows read, valid and already registered, then each problem
// by row and column, or a notice that there is none. A long list of
// problems shows its first DEVICE_IMPORT_PROBLEMS_SHOWN.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

import { FieldList } from '../../../components/field-list.tsx';
import { ListTable } from '../../../components/list-table.tsx';
import { DEVICE_IMPORT_PROBLEMS_SHOWN } from '../../../lib/constants.ts';
import { formatCount, pluralForm } from '../../../lib/format.ts';
import type { ImportReport } from '../api/device-import-api.ts';

export function ImportReportView({ report }: { report: ImportReport }) {
  const { t, i18n } = useTranslation('deviceImport');
  const count = (n: number) => formatCount(n, i18n.language);
  const { registered, errors } = report;
  return (
    <Stack spacing={2} sx={{ mt: 2 }}>
      {report.applied ? (
        <Alert severity="success">{t(`registered.${pluralForm(registered, i18n.language)}`, { n: count(registered) })}</Alert>
      ) : null}
      <FieldList
        fields={[
          { label: t('summary.rows'), value: count(report.rows) },
          { label: t('summary.valid'), value: count(report.valid) },
          { label: t('summary.unchanged'), value: count(report.unchanged) },
        ]}
      />
      {errors.length === 0 ? (
        report.applied ? null : <Alert severity="success">{t('noProblems')}</Alert>
      ) : (
        <ImportProblems report={report} />
      )}
    </Stack>
  );
}

function ImportProblems({ report: { errors } }: { report: ImportReport }) {
  const { t, i18n } = useTranslation('deviceImport');
  const shown = errors.slice(0, DEVICE_IMPORT_PROBLEMS_SHOWN);
  return (
    <Box>
      <ListTable
        label={t('problems.label')}
        headers={[t('problems.row'), t('problems.column'), t('problems.problem')]}
        items={shown}
        empty={t('noProblems')}
        row={(problem) => (
          <TableRow key={`${String(problem.row)}:${problem.field}:${problem.message}`}>
            <TableCell>{problem.row}</TableCell>
            <TableCell sx={{ fontFamily: problem.field ? 'monospace' : undefined }}>{problem.field || t('problems.wholeRow')}</TableCell>
            <TableCell sx={{ overflowWrap: 'anywhere' }}>{problem.message}</TableCell>
          </TableRow>
        )}
      />
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        {t('problems.rowHint')}
      </Typography>
      {errors.length > shown.length ? (
        <Typography variant="body2" color="text.secondary">
          {t('problems.more', { shown: formatCount(shown.length, i18n.language), total: formatCount(errors.length, i18n.language) })}
        </Typography>
      ) : null}
    </Box>
  );
}
