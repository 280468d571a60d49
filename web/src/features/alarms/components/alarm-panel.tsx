// The side panel of one alarm: what it is, where, who has it, its history,
// and (for operators and admins) the actions its state allows. It follows
// the alarm live: an `alarm` hint refetches it.
import CloseIcon from '../../../components/icons/close';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import { DeviceLink } from '../../../components/device-link.tsx';
import { FieldList } from '../../../components/field-list.tsx';
import { useTimestamp } from '../../../components/use-timestamp.ts';
import { GATEWAY_PREFIX } from '../../../lib/constants.ts';
import { useCan } from '../../../lib/permissions.ts';
import type { Actor, AlarmDetail } from '../api/alarm-types.ts';
import { useAlarmQuery } from '../api/alarms-api.ts';
import { useAlarmEvidence } from '../hooks/use-alarm-evidence.ts';
import { useAlarmWords } from '../hooks/use-alarm-words.ts';
import { AlarmActions } from './alarm-actions.tsx';
import { SeverityChip, StatusChip } from './alarm-chips.tsx';
import { AlarmHistory } from './alarm-history.tsx';

interface Props {
  alarmId: string | null;
  onClose: () => void;
}

/**
 * What raised the alarm, as its `details` name it (ids of other records are
 * left out); a leak detector's evidence is worded whole (`useAlarmEvidence`).
 */
const DETAIL_KEYS = ['gateway', 'commandId', 'requestId', 'timeoutSecs'] as const;

function useFields(alarm: AlarmDetail) {
  const { t } = useTranslation('alarms');
  const timestamp = useTimestamp();
  const evidence = useAlarmEvidence()(alarm);
  const by = (at: string | null, actor: Actor | null) =>
    at ? t('panel.by', { at: timestamp(at), name: actor?.name ?? '' }) : null;
  const fields: { label: string; value: string }[] = [
    { label: t('panel.raised'), value: by(alarm.raisedAt, alarm.raisedBy) ?? '' },
    { label: t('panel.assignee'), value: alarm.assignee?.name ?? t('panel.unassigned') },
  ];
  const steps = [
    [t('panel.acknowledged'), by(alarm.acknowledgedAt, alarm.acknowledgedBy)],
    [t('panel.cleared'), by(alarm.clearedAt, alarm.clearedBy)],
    [t('panel.closed'), by(alarm.closedAt, alarm.closedBy)],
  ] as const;
  for (const [label, value] of steps) if (value) fields.push({ label, value });
  for (const key of DETAIL_KEYS) {
    const value = alarm.details[key];
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    const text = key === 'gateway' ? `${GATEWAY_PREFIX}${String(value)}` : String(value);
    fields.push({ label: t(`panel.detailKeys.${key}`), value: text });
  }
  // A leak detector's alarm: why it was raised, against which threshold.
  if (evidence) fields.push({ label: t('panel.evidence'), value: evidence });
  return fields;
}

function AlarmBody({ alarm, headingId }: { alarm: AlarmDetail; headingId: string }) {
  const { t } = useTranslation('alarms');
  const words = useAlarmWords();
  const canAct = useCan('changeDevices');
  const fields = useFields(alarm);
  return (
    <Stack spacing={2}>
      <Typography id={headingId} variant="h6" component="h2">
        {words.type(alarm.type)}
      </Typography>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <SeverityChip severity={alarm.severity} />
        <StatusChip status={alarm.status} />
        <DeviceLink id={alarm.deviceId} name={alarm.deviceName} kind={alarm.deviceKind === 'gateway' ? 'gateway' : 'meter'} />
      </Box>
      <FieldList fields={fields} />
      {canAct ? (
        <>
          <Divider />
          <AlarmActions key={alarm.id} alarm={alarm} />
        </>
      ) : null}
      <Divider />
      <Typography variant="subtitle1" component="h3">{t('panel.history')}</Typography>
      <AlarmHistory history={alarm.history} />
    </Stack>
  );
}

export function AlarmPanel({ alarmId, onClose }: Props) {
  const { t } = useTranslation('alarms');
  const { t: common } = useTranslation();
  const headingId = useId();
  const { currentData: alarm, isFetching } = useAlarmQuery(alarmId ?? '', { skip: !alarmId });
  return (
    <Drawer
      anchor="right"
      open={alarmId !== null}
      onClose={onClose}
      slotProps={{ paper: { sx: { width: { xs: '100%', sm: 420 }, p: 2, boxSizing: 'border-box' }, 'aria-labelledby': headingId } }}
    >
      <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <IconButton aria-label={t('panel.close')} onClick={onClose}>
          <CloseIcon />
        </IconButton>
      </Box>
      {alarm ? (
        <AlarmBody alarm={alarm} headingId={headingId} />
      ) : isFetching ? (
        <Box sx={{ display: 'grid', placeItems: 'center', p: 4 }}>
          <CircularProgress aria-label={common('loading')} />
        </Box>
      ) : (
        <Typography id={headingId} color="error" role="alert">{t('panel.loadFailed')}</Typography>
      )}
    </Drawer>
  );
}
