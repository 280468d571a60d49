// The file to import: the header its first line must hold, a template
// holding just that line, and the choice of a .csv file. The same file may
// be chosen again once fixed.
import UploadFileIcon from '../../../components/icons/upload-file';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';

import type { DeviceCsvKind } from '../../../lib/types.ts';
import { CSV_HEADER, templateHref, templateName } from '../api/device-columns.ts';

interface Props {
  kind: DeviceCsvKind;
  file: File | null;
  disabled: boolean;
  onChoose: (file: File) => void;
}

/** Hidden from sight but not from the keyboard, which reaches the file input itself. */
const VISUALLY_HIDDEN = {
  clip: 'rect(0 0 0 0)',
  clipPath: 'inset(50%)',
  height: 1,
  width: 1,
  overflow: 'hidden',
  position: 'absolute',
  whiteSpace: 'nowrap',
} as const;

export function FileChoice({ kind, file, disabled, onChoose }: Props) {
  const { t } = useTranslation('deviceImport');
  return (
    <>
      <Typography variant="body2">{t('header')}</Typography>
      <Box
        component="code"
        sx={{ display: 'block', my: 1, p: 1, borderRadius: 1, bgcolor: 'action.hover', fontFamily: 'monospace', overflowWrap: 'anywhere' }}
      >
        {CSV_HEADER[kind]}
      </Box>
      <Link href={templateHref(kind)} download={templateName(kind)} variant="body2">
        {t('template')}
      </Link>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2, mt: 2 }}>
        <Button component="label" role={undefined} tabIndex={-1} variant="outlined" startIcon={<UploadFileIcon />} disabled={disabled}>
          {t('choose')}
          <Box
            component="input"
            type="file"
            accept=".csv,text/csv"
            disabled={disabled}
            sx={VISUALLY_HIDDEN}
            onChange={(event: ChangeEvent<HTMLInputElement>) => {
              const chosen = event.target.files?.[0];
              event.target.value = '';
              if (chosen) onChoose(chosen);
            }}
          />
        </Button>
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {file ? file.name : t('noFile')}
        </Typography>
      </Box>
    </>
  );
}
