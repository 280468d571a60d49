// The filter bar above the alarm grid. Every change goes to the URL (and so
// back to the first page); a text field applies on Enter or when it loses focus.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { ALARM_STATUSES, SEVERITIES } from '../api/alarm-types.ts';
import { isFiltered, NO_FILTER, type AlarmView } from '../api/alarm-view.ts';
import { useAlarmAssigneesQuery } from '../api/alarms-api.ts';
import { useAlarmWords } from '../hooks/use-alarm-words.ts';

interface Props {
  view: AlarmView;
  onChange: (view: AlarmView) => void;
  /** The name of the device the view is limited to, when it is. */
  deviceName: string | null;
}

const ANYONE = '';

interface ToggleFilterProps<W extends string> {
  label: string;
  words: readonly W[];
  wordOf: (word: W) => string;
  value: W[];
  onChange: (value: W[]) => void;
}

/** Any of a few words (statuses, severities); none chosen is all. */
function ToggleFilter<W extends string>({ label, words, wordOf, value, onChange }: ToggleFilterProps<W>) {
  const labelId = useId();
  return (
    <Box>
      <Typography variant="caption" component="div" id={labelId}>{label}</Typography>
      <ToggleButtonGroup size="small" aria-labelledby={labelId} value={value} onChange={(_event, next: W[]) => { onChange(next); }}>
        {words.map((word) => (
          <ToggleButton key={word} value={word}>{wordOf(word)}</ToggleButton>
        ))}
      </ToggleButtonGroup>
    </Box>
  );
}

function TypesField({ value, onApply }: { value: string[]; onApply: (types: string[]) => void }) {
  const { t } = useTranslation('alarms');
  const joined = value.join(',');
  const [text, setText] = useState(joined);
  const [shown, setShown] = useState(joined);
  if (shown !== joined) {
    setShown(joined);
    setText(joined);
  }
  const apply = () => {
    const types = [...new Set(text.split(',').map((w) => w.trim()).filter(Boolean))];
    if (types.join(',') !== joined) onApply(types);
  };
  return (
    <TextField
      size="small"
      label={t('filters.type')}
      helperText={t('filters.typeHint')}
      value={text}
      onChange={(event) => { setText(event.target.value); }}
      onBlur={apply}
      onKeyDown={(event) => { if (event.key === 'Enter') apply(); }}
      sx={{ width: 220 }}
    />
  );
}

export function AlarmFilters({ view, onChange, deviceName }: Props) {
  const { t } = useTranslation('alarms');
  const words = useAlarmWords();
  const { data: assignees = [] } = useAlarmAssigneesQuery(undefined);
  const set = (patch: Partial<AlarmView>) => { onChange({ ...view, ...patch }); };
  const day = (value: string) => (value ? value : null);
  return (
    <Box
      role="group"
      aria-label={t('filters.label')}
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start', mb: 2 }}
    >
      <ToggleFilter
        label={t('filters.status')}
        words={ALARM_STATUSES}
        wordOf={words.status}
        value={view.status}
        onChange={(status) => { set({ status }); }}
      />
      <ToggleFilter
        label={t('filters.severity')}
        words={SEVERITIES}
        wordOf={words.severity}
        value={view.severity}
        onChange={(severity) => { set({ severity }); }}
      />
      <TypesField value={view.type} onApply={(type) => { set({ type }); }} />
      <TextField
        select
        size="small"
        label={t('filters.assignee')}
        value={view.assignee ?? ANYONE}
        onChange={(event) => { set({ assignee: event.target.value || null }); }}
        sx={{ width: 180 }}
      >
        <MenuItem value={ANYONE}>{t('filters.anyone')}</MenuItem>
        <MenuItem value="none">{t('filters.nobody')}</MenuItem>
        {assignees.map((user) => (
          <MenuItem key={user.userId} value={user.userId}>{user.username}</MenuItem>
        ))}
        {view.assignee && view.assignee !== 'none' && !assignees.some((u) => u.userId === view.assignee) ? (
          <MenuItem value={view.assignee}>{view.assignee}</MenuItem>
        ) : null}
      </TextField>
      <TextField
        size="small"
        type="date"
        label={t('filters.from')}
        value={view.from ?? ''}
        onChange={(event) => { set({ from: day(event.target.value) }); }}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField
        size="small"
        type="date"
        label={t('filters.to')}
        value={view.to ?? ''}
        onChange={(event) => { set({ to: day(event.target.value) }); }}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      {view.device ? (
        <Chip
          label={t('filters.device', { name: deviceName ?? view.device })}
          onDelete={() => { set({ device: null }); }}
          sx={{ alignSelf: 'center' }}
        />
      ) : null}
      {isFiltered(view) ? (
        <Button size="small" onClick={() => { set(NO_FILTER); }} sx={{ alignSelf: 'center' }}>
          {t('filters.clear')}
        </Button>
      ) : null}
    </Box>
  );
}
