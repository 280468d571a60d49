// What an operator or admin can do to an alarm in its state: acknowledge an
// active one, clear an open one, close a cleared one (each with an optional
// note), assign one that is not closed, and comment on any.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { AlarmDetail } from '../api/alarm-types.ts';
import { useAlarmAssigneesQuery } from '../api/alarms-api.ts';
import { useAlarmAct } from '../hooks/use-alarm-act.ts';

const MAX_TEXT = 2000;
const NOBODY = '';

type Step = 'acknowledge' | 'clear' | 'close';

function steps(status: string): Step[] {
  switch (status) {
    case 'active':
      return ['acknowledge', 'clear'];
    case 'acknowledged':
      return ['clear'];
    case 'cleared':
      return ['close'];
    default:
      return [];
  }
}

function Assign({ alarm }: { alarm: AlarmDetail }) {
  const { t } = useTranslation('alarms');
  const { data: users = [] } = useAlarmAssigneesQuery(undefined);
  const { act, busy } = useAlarmAct();
  const current = alarm.assignee?.id ?? NOBODY;
  const [chosen, setChosen] = useState(current);
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
      <TextField
        select
        size="small"
        label={t('actions.assignTo')}
        value={chosen}
        onChange={(event) => { setChosen(event.target.value); }}
        sx={{ flex: 1 }}
      >
        <MenuItem value={NOBODY}>{t('panel.unassigned')}</MenuItem>
        {users.map((user) => (
          <MenuItem key={user.userId} value={user.userId}>{user.username}</MenuItem>
        ))}
        {current && !users.some((u) => u.userId === current) ? (
          <MenuItem value={current}>{alarm.assignee?.name}</MenuItem>
        ) : null}
      </TextField>
      <Button
        variant="outlined"
        disabled={chosen === current}
        loading={busy}
        onClick={() => void act({ id: alarm.id, action: 'assign', assignee: chosen || null })}
      >
        {t('actions.assign')}
      </Button>
    </Box>
  );
}

function Comment({ alarmId }: { alarmId: string }) {
  const { t } = useTranslation('alarms');
  const { act, busy } = useAlarmAct();
  const [text, setText] = useState('');
  const send = async () => {
    if (await act({ id: alarmId, action: 'comment', text: text.trim() })) setText('');
  };
  return (
    <Stack spacing={1}>
      <TextField
        size="small"
        multiline
        minRows={2}
        label={t('panel.commentLabel')}
        value={text}
        onChange={(event) => { setText(event.target.value); }}
        slotProps={{ htmlInput: { maxLength: MAX_TEXT } }}
      />
      <Button variant="outlined" disabled={!text.trim()} loading={busy} onClick={() => void send()} sx={{ alignSelf: 'flex-end' }}>
        {t('panel.commentSend')}
      </Button>
    </Stack>
  );
}

export function AlarmActions({ alarm }: { alarm: AlarmDetail }) {
  const { t } = useTranslation('alarms');
  const { act, busy } = useAlarmAct();
  const [note, setNote] = useState('');
  const available = steps(alarm.status);
  const run = async (step: Step) => {
    if (await act({ id: alarm.id, action: step, note: note.trim() })) setNote('');
  };
  return (
    <Stack spacing={2}>
      {available.length ? (
        <Stack spacing={1}>
          <TextField
            size="small"
            label={t('panel.note')}
            value={note}
            onChange={(event) => { setNote(event.target.value); }}
            slotProps={{ htmlInput: { maxLength: MAX_TEXT } }}
          />
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            {available.map((step) => (
              <Button
                key={step}
                variant={step === available[0] ? 'contained' : 'outlined'}
                loading={busy}
                onClick={() => void run(step)}
              >
                {t(`actions.${step}`)}
              </Button>
            ))}
          </Box>
        </Stack>
      ) : null}
      {alarm.status === 'closed' ? null : <Assign key={alarm.assignee?.id ?? NOBODY} alarm={alarm} />}
      <Comment alarmId={alarm.id} />
    </Stack>
  );
}
