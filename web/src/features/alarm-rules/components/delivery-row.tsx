// One delivery in the deliveries table: when, whether a test, how many
// alarms, its status, its attempts and the last response (code, latency,
// error), and why it was abandoned or when it is tried next. Its attempts
// unfold below it, each with its time, outcome, code, latency and error.
import KeyboardArrowDownIcon from '../../../components/icons/keyboard-arrow-down';
import KeyboardArrowUpIcon from '../../../components/icons/keyboard-arrow-up';
import Chip from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useTimestamp } from '../../../components/use-timestamp.ts';
import { formatCount } from '../../../lib/format.ts';
import type { Attempt, Delivery, DeliveryStatus } from '../api/rule-types.ts';

/** The delivery table's columns, after the unfold button. */
export const DELIVERY_COLUMNS = ['created', 'test', 'alarms', 'status', 'attempts', 'lastResponse', 'reason'] as const;

const STATUS_COLOUR: Record<DeliveryStatus, 'default' | 'success' | 'error'> = {
  pending: 'default',
  delivered: 'success',
  abandoned: 'error',
};

const ATTEMPT_COLUMNS = ['at', 'outcome', 'code', 'latency', 'error'] as const;

function useAttemptWords() {
  const { t, i18n } = useTranslation('alarmRules');
  const { t: common } = useTranslation();
  return {
    code: (attempt: Attempt) => (attempt.statusCode === null ? common('fallback.na') : String(attempt.statusCode)),
    latency: (attempt: Attempt) => t('deliveries.latency', { ms: formatCount(attempt.latencyMs, i18n.language) }),
  };
}

export function DeliveryRow({ delivery }: { delivery: Delivery }) {
  const { t } = useTranslation('alarmRules');
  const { t: common } = useTranslation();
  const timestamp = useTimestamp();
  const words = useAttemptWords();
  const attemptsId = useId();
  const [open, setOpen] = useState(false);
  const last = delivery.attempts.at(-1);
  const reason =
    delivery.reason ??
    (delivery.status === 'pending' && delivery.nextAttemptAt ? t('deliveries.nextAttempt', { at: timestamp(delivery.nextAttemptAt) }) : '');
  return (
    <>
      <TableRow data-testid={`delivery-${delivery.id}`} sx={{ '& > td': { borderBottom: 'unset' } }}>
        <TableCell padding="checkbox">
          <IconButton
            size="small"
            aria-label={open ? t('deliveries.hideAttempts') : t('deliveries.showAttempts')}
            aria-expanded={open}
            aria-controls={attemptsId}
            onClick={() => {
              setOpen(!open);
            }}
          >
            {open ? <KeyboardArrowUpIcon /> : <KeyboardArrowDownIcon />}
          </IconButton>
        </TableCell>
        <TableCell sx={{ whiteSpace: 'nowrap' }}>{timestamp(delivery.createdAt)}</TableCell>
        <TableCell>{delivery.test ? common('fallback.yes') : common('fallback.no')}</TableCell>
        <TableCell>{delivery.alarmCount}</TableCell>
        <TableCell>
          <Chip size="small" variant="outlined" color={STATUS_COLOUR[delivery.status]} label={t(`deliveries.statuses.${delivery.status}`)} />
        </TableCell>
        <TableCell>{delivery.attempts.length}</TableCell>
        <TableCell sx={{ overflowWrap: 'anywhere' }}>
          {last ? t('deliveries.response', { code: words.code(last), latency: words.latency(last) }) : t('deliveries.noAttempt')}
          {last?.error ? <Typography variant="body2" color="text.secondary">{last.error}</Typography> : null}
        </TableCell>
        <TableCell sx={{ overflowWrap: 'anywhere' }}>{reason}</TableCell>
      </TableRow>
      <TableRow>
        <TableCell colSpan={DELIVERY_COLUMNS.length + 1} sx={{ py: 0 }}>
          <Collapse in={open} unmountOnExit id={attemptsId}>
            <Attempts attempts={delivery.attempts} />
          </Collapse>
        </TableCell>
      </TableRow>
    </>
  );
}

function Attempts({ attempts }: { attempts: Attempt[] }) {
  const { t } = useTranslation('alarmRules');
  const timestamp = useTimestamp();
  const words = useAttemptWords();
  if (attempts.length === 0) return <Typography variant="body2" sx={{ my: 1 }}>{t('deliveries.noAttempt')}</Typography>;
  return (
    <Table size="small" aria-label={t('deliveries.attempt.label')} sx={{ my: 1 }}>
      <TableHead>
        <TableRow>
          {ATTEMPT_COLUMNS.map((column) => (
            <TableCell key={column}>{t(`deliveries.attempt.${column}`)}</TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {attempts.map((attempt) => (
          <TableRow key={attempt.at}>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>
              <time dateTime={attempt.at}>{timestamp(attempt.at)}</time>
            </TableCell>
            <TableCell>{t(`deliveries.attempt.${attempt.outcome}`)}</TableCell>
            <TableCell>{words.code(attempt)}</TableCell>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{words.latency(attempt)}</TableCell>
            <TableCell sx={{ overflowWrap: 'anywhere' }}>{attempt.error ?? ''}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
