// Valve Commands: the meter's commands, newest first, each with the time of
// every step (pending → sent → acked | failed | timed-out) and who confirmed
// it. Operators and admins can resend a failed or timed-out one. Shown once
// the meter has a command; `valve` hints keep it live.
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';

import { DataTable } from '../../../components/data-table/data-table.tsx';
import { useNotice } from '../../../components/notice.tsx';
import { TableSection } from '../../../components/table-section.tsx';
import { useTimestamp } from '../../../components/use-timestamp.ts';
import { errorCode, isForbidden } from '../../../lib/api.ts';
import { GATEWAY_PREFIX } from '../../../lib/constants.ts';
import { useCan } from '../../../lib/permissions.ts';
import { useLoggedError } from '../../../lib/use-logged-error.ts';
import {
  useResendValveCommandMutation,
  useValveCommandsQuery,
  type ValveCommandStep,
} from '../api/valve-commands-api.ts';

const RESENDABLE = new Set(['failed', 'timed-out']);
const STATUS_COLOUR: Record<string, 'default' | 'success' | 'error' | 'primary'> = {
  pending: 'default',
  sent: 'primary',
  acked: 'success',
  failed: 'error',
  'timed-out': 'error',
};

function ResendButton({ command, meterId }: { command: ValveCommandStep; meterId: string }) {
  const { t } = useTranslation('meters');
  const notify = useNotice();
  const [resend, { isLoading }] = useResendValveCommandMutation();
  const onClick = async () => {
    try {
      await resend({ commandId: command.commandId, meterId }).unwrap();
      notify(t('valve.resent'));
    } catch (error) {
      const code = errorCode(error);
      notify(
        code === 'no_gateway' ? t('valve.noGateway')
        : code === 'not_resendable' ? t('valve.notResendable')
        : isForbidden(error) ? t('valve.denied')
        : t('valve.resendFailed'),
        'error',
      );
    }
  };
  return (
    <Button size="small" variant="outlined" loading={isLoading} onClick={() => void onClick()}>
      {t('valve.resend')}
    </Button>
  );
}

export function ValveCommandsTable({ meterId }: { meterId: string }) {
  const { t } = useTranslation('meters');
  const timestamp = useTimestamp();
  const canResend = useCan('changeDevices');
  const { data, error } = useValveCommandsQuery(meterId);
  useLoggedError(error, 'valve commands');
  if (!data?.length) return null;

  const when = (value: string | null) => (value ? timestamp(value) : '—');
  const status = (value: string) => t(`valve.statuses.${value}` as 'valve.statuses.acked', { defaultValue: value });
  return (
    <TableSection title={t('valve.title')} loading={false}>
      <DataTable<ValveCommandStep>
        label={t('valve.title')}
        rows={data}
        rowId={(command) => command.commandId}
        emptyText={t('valve.title')}
        columns={[
          { field: 'issuedAt', header: t('valve.issued'), minWidth: 130, value: (c) => timestamp(c.issuedAt) },
          { field: 'issuedByName', header: t('valve.issuedBy'), minWidth: 110 },
          {
            field: 'status',
            header: t('valve.status'),
            minWidth: 130,
            value: (c) => status(c.status),
            render: (c) => (
              <Chip size="small" variant="outlined" color={STATUS_COLOUR[c.status] ?? 'default'} label={status(c.status)} data-status={c.status} />
            ),
          },
          { field: 'gatewaySerial', header: t('valve.gateway'), minWidth: 130, value: (c) => `${GATEWAY_PREFIX}${c.gatewaySerial}` },
          { field: 'sentAt', header: t('valve.sent'), minWidth: 130, value: (c) => when(c.sentAt) },
          { field: 'settledAt', header: t('valve.settled'), minWidth: 130, value: (c) => when(c.settledAt) },
          { field: 'detail', header: t('valve.detail'), minWidth: 120 },
          ...(canResend
            ? [{
                field: 'resend',
                header: t('valve.actions'),
                minWidth: 110,
                value: () => null,
                render: (c: ValveCommandStep) => (RESENDABLE.has(c.status) ? <ResendButton command={c} meterId={meterId} /> : null),
              }]
            : []),
        ]}
      />
    </TableSection>
  );
}
