// The left panel: the meter's fields, toggling between view and edit; a
// viewer gets the fields only.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useCan } from '../../../lib/permissions.ts';
import type { WaterMeter } from '../../../lib/types.ts';
import { MeterDeleteButton } from './meter-delete-button.tsx';
import { MeterFields } from './meter-fields.tsx';
import { MeterGpsForm } from './meter-gps-form.tsx';

export function MeterInfoPanel({ meter }: { meter: WaterMeter }) {
  const { t } = useTranslation('meters');
  const { t: common } = useTranslation();
  const [editing, setEditing] = useState(false);
  const canChange = useCan('changeDevices');
  return (
    <Paper variant="outlined" component="section" aria-label={t('detail.panel')} sx={{ p: 2, minWidth: 0 }}>
      <MeterFields meter={meter} />
      {!canChange ? null : editing ? (
        <MeterGpsForm meter={meter} onDone={() => { setEditing(false); }} />
      ) : (
        <Box sx={{ display: 'flex', gap: 1, mt: 2 }}>
          <Button variant="contained" onClick={() => { setEditing(true); }}>
            {common('actions.edit')}
          </Button>
          {meter.lastseen === null ? <MeterDeleteButton meter={meter} /> : null}
        </Box>
      )}
    </Paper>
  );
}
