// The import of a device CSV: the file chosen is checked first (a dry run)
// and its report shown; "Import N devices" then registers the valid rows not
// registered already, and the report says how many were. The steps are
// mounted at each opening, so each opening starts with no file.
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import type { DeviceImportProps } from '../../../components/device-import-context.ts';
import { formatCount, pluralForm } from '../../../lib/format.ts';
import { toRegister } from '../api/device-import-api.ts';
import { useDeviceImport } from '../hooks/use-device-import.ts';
import { FileChoice } from './file-choice.tsx';
import { ImportReportView } from './import-report.tsx';

interface Props extends DeviceImportProps {
  open: boolean;
  onClose: () => void;
}

export function ImportDialog({ kind, open, onClose, onImported }: Props) {
  const { t } = useTranslation('deviceImport');
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="md">
      <DialogTitle id={titleId}>{t(`title.${kind}`)}</DialogTitle>
      <ImportSteps kind={kind} onClose={onClose} onImported={onImported} />
    </Dialog>
  );
}

function ImportSteps({ kind, onClose, onImported }: Omit<Props, 'open'>) {
  const { t, i18n } = useTranslation('deviceImport');
  const { t: common } = useTranslation();
  const { file, report, problem, busy, choose, apply } = useDeviceImport(kind, onImported);
  const checking = busy && report === null;
  const count = report && !report.applied ? toRegister(report) : 0;
  return (
    <>
      <DialogContent sx={{ pt: 0 }}>
        <FileChoice kind={kind} file={file} disabled={busy} onChoose={choose} />
        {checking ? (
          <>
            <Typography variant="body2" sx={{ mt: 2 }}>
              {t('checking')}
            </Typography>
            <LinearProgress aria-label={t('checking')} />
          </>
        ) : null}
        {problem ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {problem}
          </Alert>
        ) : null}
        {report ? <ImportReportView report={report} /> : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{report?.applied ? common('actions.close') : common('actions.cancel')}</Button>
        {report && !report.applied ? (
          <Button variant="contained" disabled={count === 0} loading={busy} onClick={apply}>
            {t(`apply.${pluralForm(count, i18n.language)}`, { n: formatCount(count, i18n.language) })}
          </Button>
        ) : null}
      </DialogActions>
    </>
  );
}
