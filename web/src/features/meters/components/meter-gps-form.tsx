// The meter's edit form (spec §5, Meter edit): GPS only, shown with six
// decimals and normalized on blur; sent only when it parsed and changed.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { useNotice } from '../../../components/notice.tsx';
import { isCancelled, isForbidden } from '../../../lib/api.ts';
import { formatGps, idOf } from '../../../lib/format.ts';
import type { WaterMeter } from '../../../lib/types.ts';
import { parseGps, type Gps } from '../../../lib/validation.ts';
import { useMeterUpdateMutation } from '../api/meter-detail-api.ts';

/** The GPS to send: the parsed input when it differs from the current value. */
export function gpsChange(input: string, current: WaterMeter['gpsCoordinates']): Gps | null {
  const next = parseGps(input);
  if (!next.ok) return null;
  const before = current === null ? null : parseGps(current);
  const same = before?.ok && before.value[0] === next.value[0] && before.value[1] === next.value[1];
  return same ? null : next.value;
}

export function MeterGpsForm({ meter, onDone }: { meter: WaterMeter; onDone: () => void }) {
  const { t } = useTranslation('meters');
  const { t: common } = useTranslation();
  const notify = useNotice();
  const [text, setText] = useState(formatGps(meter.gpsCoordinates) ?? '');
  const [invalid, setInvalid] = useState(false);
  const [update, { isLoading }] = useMeterUpdateMutation();

  const normalize = () => {
    if (!text.trim()) return;
    const formatted = formatGps(text);
    if (formatted) setText(formatted);
    setInvalid(formatted === null);
  };

  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    const gpsCoordinates = gpsChange(text, meter.gpsCoordinates);
    if (!gpsCoordinates) {
      onDone();
      return;
    }
    try {
      await update({ id: idOf(meter._id), gpsCoordinates }).unwrap();
      notify(t('detail.saved'), 'success');
      onDone();
    } catch (error) {
      if (isCancelled(error)) return;
      notify(isForbidden(error) ? t('detail.saveDenied') : t('detail.saveFailed'), 'error');
    }
  };

  return (
    <Box component="form" noValidate onSubmit={(event) => { void submit(event); }} sx={{ mt: 2 }}>
      <TextField
        label={t('detail.gpsLabel')}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setInvalid(false);
        }}
        onBlur={normalize}
        error={invalid}
        helperText={invalid ? common('validation.gpsCoordinates') : t('detail.gpsHint')}
        size="small"
        fullWidth
      />
      <Box sx={{ display: 'flex', gap: 1, mt: 2 }}>
        <Button type="submit" variant="contained" loading={isLoading}>
          {common('actions.save')}
        </Button>
        <Button onClick={onDone} disabled={isLoading}>
          {common('actions.cancel')}
        </Button>
      </Box>
    </Box>
  );
}
