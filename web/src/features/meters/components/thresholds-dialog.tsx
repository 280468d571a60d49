// Edit thresholds: the meter's own, each field empty to follow the network
// default (its placeholder and hint). Checked here with the server's ranges
// and messages; a field the server refuses shows the same message. Use
// defaults empties every field, and Save then puts the meter back on them.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useId, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { useNotice } from '../../../components/notice.tsx';
import { isCancelled, isForbidden } from '../../../lib/api.ts';
import { THRESHOLD_NAMES, useSetThresholdsMutation, type MeterThresholds, type ThresholdName } from '../api/thresholds-api.ts';
import {
  parseThreshold,
  parseThresholds,
  refusedThresholds,
  thresholdText,
  thresholdTexts,
  UNIT_OF,
  type ThresholdErrors,
  type ThresholdTexts,
} from '../hooks/threshold-form.ts';
import { useThresholdWords } from '../hooks/use-threshold-words.ts';

const EMPTY: ThresholdTexts = { continuousFlowHours: '', nightFlowLitresPerHour: '', burstLitresPerHour: '', stuckMeterDays: '' };

interface Props {
  open: boolean;
  thresholds: MeterThresholds;
  onClose: () => void;
}

export function ThresholdsDialog({ open, thresholds, onClose }: Props) {
  const { t } = useTranslation('meters');
  const titleId = useId();
  const textId = useId();
  // The form is mounted at each opening (the dialog unmounts it once closed),
  // so it starts from the thresholds as they are then.
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} aria-describedby={textId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>{t('thresholds.dialog.title')}</DialogTitle>
      <ThresholdsForm thresholds={thresholds} textId={textId} onClose={onClose} />
    </Dialog>
  );
}

function ThresholdsForm({ thresholds, textId, onClose }: { thresholds: MeterThresholds; textId: string; onClose: () => void }) {
  const { t, i18n } = useTranslation('meters');
  const { t: common } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  const words = useThresholdWords();
  const notify = useNotice();
  const [texts, setTexts] = useState(() => thresholdTexts(thresholds.own, language));
  const [errors, setErrors] = useState<ThresholdErrors>({});
  const [save, { isLoading }] = useSetThresholdsMutation();

  const change = (name: ThresholdName, text: string) => {
    setTexts((before) => ({ ...before, [name]: text }));
    setErrors((before) => ({ ...before, [name]: false }));
  };
  const check = (name: ThresholdName) => {
    setErrors((before) => ({ ...before, [name]: parseThreshold(name, texts[name], language) === undefined }));
  };
  const resetToDefaults = () => {
    setTexts(EMPTY);
    setErrors({});
  };

  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    const parsed = parseThresholds(texts, language);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    try {
      await save({ meterId: thresholds.meterId, values: parsed.values }).unwrap();
      notify(t('thresholds.saved'), 'success');
      onClose();
    } catch (error) {
      if (isCancelled(error)) return;
      const refused = refusedThresholds(error);
      if (refused) setErrors(refused);
      else notify(isForbidden(error) ? t('thresholds.saveDenied') : t('thresholds.saveFailed'), 'error');
    }
  };

  return (
    <Box component="form" noValidate onSubmit={(event) => { void submit(event); }}>
      <DialogContent sx={{ pt: 0 }}>
        <DialogContentText id={textId}>{t('thresholds.dialog.text')}</DialogContentText>
        <Stack spacing={2} sx={{ mt: 2 }}>
          {THRESHOLD_NAMES.map((name) => (
            <TextField
              key={name}
              name={name}
              label={t(`thresholds.dialog.labels.${name}`)}
              value={texts[name]}
              onChange={(event) => { change(name, event.target.value); }}
              onBlur={() => { check(name); }}
              error={errors[name] === true}
              helperText={
                errors[name]
                  ? t(`thresholds.invalid.${UNIT_OF[name]}`)
                  : t('thresholds.dialog.default', { value: words(name, thresholds.defaults[name]) })
              }
              placeholder={thresholdText(thresholds.defaults[name], language)}
              size="small"
              fullWidth
              slotProps={{ htmlInput: { inputMode: UNIT_OF[name] === 'litresPerHour' ? 'decimal' : 'numeric' } }}
            />
          ))}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={resetToDefaults} disabled={isLoading} sx={{ mr: 'auto' }}>
          {t('thresholds.dialog.useDefaults')}
        </Button>
        <Button onClick={onClose} disabled={isLoading}>
          {common('actions.cancel')}
        </Button>
        <Button type="submit" variant="contained" loading={isLoading}>
          {common('actions.save')}
        </Button>
      </DialogActions>
    </Box>
  );
}
