// An alarm's history, oldest step first: who did what, when, with the note.
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import { useTranslation } from 'react-i18next';

import { useTimestamp } from '../../../components/use-timestamp.ts';
import type { HistoryEntry } from '../api/alarm-types.ts';

function useActionWords() {
  const { t } = useTranslation('alarms');
  return (entry: HistoryEntry) => {
    if (entry.action === 'assigned') {
      return entry.assignee ? t('history.assigned', { name: entry.assignee.name }) : t('history.unassigned');
    }
    return t(`history.${entry.action}` as 'history.raised', { defaultValue: entry.action });
  };
}

export function AlarmHistory({ history }: { history: readonly HistoryEntry[] }) {
  const { t } = useTranslation('alarms');
  const timestamp = useTimestamp();
  const action = useActionWords();
  return (
    <List dense aria-label={t('panel.history')} data-testid="alarm-history">
      {history.map((entry) => (
        <ListItem key={entry.id} disableGutters data-action={entry.action}>
          <ListItemText
            primary={t('history.entry', { action: action(entry), at: timestamp(entry.at), name: entry.actor.name })}
            secondary={entry.note || null}
            slotProps={{ secondary: { sx: { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } } }}
          />
        </ListItem>
      ))}
    </List>
  );
}
