// Import CSV beside a device list's title, for the roles that register
// devices (operators and admins): it opens the import dialog.
import UploadFileIcon from '../../../components/icons/upload-file';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { DeviceImportProps } from '../../../components/device-import-context.ts';
import { useCan } from '../../../lib/permissions.ts';
import { ImportDialog } from './import-dialog.tsx';

export function ImportButton({ kind, onImported }: DeviceImportProps) {
  const { t } = useTranslation('deviceImport');
  const canImport = useCan('changeDevices');
  const [open, setOpen] = useState(false);
  if (!canImport) return null;
  return (
    <>
      <Button size="small" startIcon={<UploadFileIcon />} aria-haspopup="dialog" onClick={() => { setOpen(true); }}>
        {t('open')}
      </Button>
      <ImportDialog kind={kind} open={open} onClose={() => { setOpen(false); }} onImported={onImported} />
    </>
  );
}
