// The alarm rules as a table, like the users': a rule is turned on or off
// in place; Edit opens its dialog, Send test queues a message at once,
// Deliveries shows what was sent, Delete asks first.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Switch from '@mui/material/Switch';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import { useTranslation } from 'react-i18next';

import { ListTable } from '../../../components/list-table.tsx';
import type { Rule } from '../api/rule-types.ts';
import { ChannelSummary, MatchSummary } from './rule-summary.tsx';

export type RuleAction = 'edit' | 'test' | 'deliveries' | 'delete';

interface Props {
  rules: readonly Rule[];
  /** The id of the rule being changed: its controls wait. */
  working: string | null;
  onToggle: (rule: Rule) => void;
  onAction: (action: RuleAction, rule: Rule) => void;
}

const COLUMNS = ['name', 'enabled', 'matches', 'channel', 'groupWindow', 'actions'] as const;
const ACTIONS: readonly RuleAction[] = ['edit', 'test', 'deliveries', 'delete'];

export function RulesTable({ rules, working, onToggle, onAction }: Props) {
  const { t } = useTranslation('alarmRules');
  return (
    <ListTable
      label={t('table.label')}
      headers={COLUMNS.map((column) => t(`table.${column}`))}
      items={rules}
      empty={t('table.empty')}
      row={(rule) => <RuleRow key={rule.id} rule={rule} busy={rule.id === working} onToggle={onToggle} onAction={onAction} />}
    />
  );
}

function RuleRow({ rule, busy, onToggle, onAction }: { rule: Rule; busy: boolean } & Pick<Props, 'onToggle' | 'onAction'>) {
  const { t } = useTranslation('alarmRules');
  const { name } = rule;
  return (
    <TableRow data-testid={`rule-${rule.id}`} sx={{ verticalAlign: 'top' }}>
      <TableCell sx={{ overflowWrap: 'anywhere' }}>{name}</TableCell>
      <TableCell>
        <Switch
          checked={rule.enabled}
          disabled={busy}
          onChange={() => {
            onToggle(rule);
          }}
          slotProps={{ input: { 'aria-label': t('table.enabledOf', { name }) } }}
        />
      </TableCell>
      <TableCell>
        <MatchSummary match={rule.match} />
      </TableCell>
      <TableCell sx={{ maxWidth: 280 }}>
        <ChannelSummary channel={rule.channel} />
      </TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{t('table.seconds', { count: rule.groupWindowSecs })}</TableCell>
      <TableCell>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          {ACTIONS.map((action) => (
            <Button
              key={action}
              size="small"
              variant={action === 'delete' ? 'outlined' : 'text'}
              color={action === 'delete' ? 'error' : 'primary'}
              disabled={busy && action !== 'deliveries'}
              aria-label={t(`actions.${action}Of`, { name })}
              onClick={() => {
                onAction(action, rule);
              }}
            >
              {t(`actions.${action}`)}
            </Button>
          ))}
        </Box>
      </TableCell>
    </TableRow>
  );
}
