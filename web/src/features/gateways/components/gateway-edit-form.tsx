// The edit side of the detail panel: Phone Number and GPS Coordinates (spec §2, §5).
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';

import type { Gateway } from '../../../lib/types.ts';
import { useGatewayEdit } from '../hooks/use-gateway-edit.ts';

export function GatewayEditForm({ gateway, onDone }: { gateway: Gateway; onDone: () => void }) {
  const { t } = useTranslation('gateways');
  const { t: tc } = useTranslation();
  const edit = useGatewayEdit(gateway, onDone);
  return (
    <Box
      component="form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void edit.save();
      }}
      sx={{ display: 'grid', gap: 2 }}
    >
      <TextField
        label={t('edit.phoneNumber')}
        value={edit.phone}
        onChange={(event) => {
          edit.setPhone(event.target.value);
        }}
        onBlur={edit.blurPhone}
        error={edit.phoneError !== null}
        helperText={edit.phoneError ?? ' '}
        slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'off' } }}
        size="small"
      />
      <TextField
        label={t('edit.gps')}
        value={edit.gps}
        onChange={(event) => {
          edit.setGps(event.target.value);
        }}
        onBlur={edit.blurGps}
        error={edit.gpsError !== null}
        helperText={edit.gpsError ?? t('edit.gpsHint')}
        slotProps={{ htmlInput: { autoComplete: 'off' } }}
        size="small"
      />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        <Button type="submit" variant="contained" loading={edit.saving}>
          {tc('actions.save')}
        </Button>
        <Button onClick={onDone} disabled={edit.saving}>
          {tc('actions.cancel')}
        </Button>
      </Box>
    </Box>
  );
}
