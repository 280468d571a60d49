// Alarm rules (/admin/rules, admins only): the rules by name, each with
// what it matches, where it sends and its group window; New rule above,
// with how to verify a webhook; each rule turned on or off in place, edited,
// tested, its deliveries shown, or deleted once confirmed. Another role is
// told it may not, and nothing is asked.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { AdminList, AdminPage } from '../../../components/admin-page.tsx';
import { useNotice } from '../../../components/notice.tsx';
import { useLoggedError } from '../../../lib/use-logged-error.ts';
import { useAlarmRulesQuery } from '../api/alarm-rules-api.ts';
import type { Rule } from '../api/rule-types.ts';
import { useRuleActions } from '../hooks/use-rule-actions.ts';
import { DeleteRuleDialog } from './delete-rule-dialog.tsx';
import { DeliveriesDialog } from './deliveries-dialog.tsx';
import { RuleDialog, type Editing } from './rule-dialog.tsx';
import { RulesTable, type RuleAction } from './rules-table.tsx';
import { WebhookHelp } from './webhook-help.tsx';

export default function AlarmRulesPage() {
  const { t } = useTranslation('alarmRules');
  return (
    <AdminPage title={t('title')} permission="manageAlarmRules" notAllowed={t('notAllowed')}>
      <RuleManagement />
    </AdminPage>
  );
}

function RuleManagement() {
  const { t } = useTranslation('alarmRules');
  const notify = useNotice();
  const { data: rules, error, isLoading } = useAlarmRulesQuery(undefined);
  const actions = useRuleActions();
  const [editing, setEditing] = useState<Editing>(null);
  const [watched, setWatched] = useState<Rule | null>(null);
  useLoggedError(error, 'alarm rules');

  const act = (action: RuleAction, rule: Rule) => {
    if (action === 'edit') setEditing(rule);
    if (action === 'test') void actions.test(rule);
    if (action === 'deliveries') setWatched(rule);
    if (action === 'delete') actions.askDelete(rule);
  };

  const toolbar = (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start' }}>
      <Box sx={{ flex: 1, minWidth: 240 }}>
        <Typography variant="body2" color="text.secondary">
          {t('intro')}
        </Typography>
        <WebhookHelp />
      </Box>
      <Button variant="contained" onClick={() => { setEditing('new'); }} sx={{ mb: 2 }}>
        {t('newRule')}
      </Button>
    </Box>
  );
  return (
    <AdminList
      error={error}
      notAllowed={t('notAllowed')}
      loadFailed={t('loadFailed')}
      loading={isLoading}
      toolbar={toolbar}
      refusal={{ message: actions.error, onClose: actions.clearError }}
      list={<RulesTable rules={rules ?? []} working={actions.working} onToggle={(rule) => void actions.toggle(rule)} onAction={act} />}
    >
      <RuleDialog
        editing={editing}
        onClose={() => { setEditing(null); }}
        onSaved={(saved, created) => {
          setEditing(null);
          notify(created ? t('done.created', { name: saved.name }) : t('done.saved', { name: saved.name }));
        }}
      />
      <DeleteRuleDialog
        pending={actions.pending}
        busy={actions.working !== null}
        onConfirm={() => void actions.confirmDelete()}
        onClose={actions.cancelDelete}
      />
      <DeliveriesDialog rule={watched} onClose={() => { setWatched(null); }} />
    </AdminList>
  );
}
