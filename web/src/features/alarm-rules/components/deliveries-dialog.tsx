// A rule's latest deliveries (at most 50, newest first), opened from its
// row, with a Refresh button: a test message sent meanwhile shows up too.
// Kept while the dialog fades out.
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useLoggedError } from '../../../lib/use-logged-error.ts';
import { useRuleDeliveriesQuery } from '../api/alarm-rules-api.ts';
import type { Rule } from '../api/rule-types.ts';
import { DELIVERY_COLUMNS, DeliveryRow } from './delivery-row.tsx';

interface Props {
  rule: Rule | null;
  onClose: () => void;
}

export function DeliveriesDialog({ rule, onClose }: Props) {
  const { t } = useTranslation('alarmRules');
  const titleId = useId();
  const [shown, setShown] = useState(rule);
  if (rule !== null && rule !== shown) setShown(rule);
  return (
    <Dialog
      open={rule !== null}
      onClose={onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="lg"
      slotProps={{ transition: { onExited: () => { setShown(null); } } }}
    >
      <DialogTitle id={titleId}>{t('deliveries.title', { name: shown?.name ?? '' })}</DialogTitle>
      {shown ? <Deliveries rule={shown} onClose={onClose} /> : null}
    </Dialog>
  );
}

function Deliveries({ rule, onClose }: { rule: Rule; onClose: () => void }) {
  const { t } = useTranslation('alarmRules');
  const { t: common } = useTranslation();
  const { data: deliveries, error, isFetching, refetch } = useRuleDeliveriesQuery(rule.id, { refetchOnMountOrArgChange: true });
  useLoggedError(error, 'rule deliveries');
  return (
    <>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('deliveries.intro')}
        </Typography>
        {error ? (
          <Typography color="error" role="alert" sx={{ mb: 1 }}>
            {t('deliveries.loadFailed')}
          </Typography>
        ) : null}
        {deliveries === undefined ? null : (
          <TableContainer>
            <Table size="small" aria-label={t('deliveries.label')}>
              <TableHead>
                <TableRow>
                  <TableCell padding="checkbox" />
                  {DELIVERY_COLUMNS.map((column) => (
                    <TableCell key={column}>{t(`deliveries.${column}`)}</TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {deliveries.length === 0 ? (
                  <TableRow>
                    <TableCell colSpan={DELIVERY_COLUMNS.length + 1}>{t('deliveries.empty')}</TableCell>
                  </TableRow>
                ) : (
                  deliveries.map((delivery) => <DeliveryRow key={delivery.id} delivery={delivery} />)
                )}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => void refetch()} loading={isFetching}>
          {t('deliveries.refresh')}
        </Button>
        <Button onClick={onClose}>{common('actions.close')}</Button>
      </DialogActions>
    </>
  );
}
