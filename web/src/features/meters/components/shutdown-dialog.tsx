// 'Shutdown Requested' (spec §2, §4): shown while the meter's latest request
// is pending. Close leaves it pending (hidden for this visit); Reject and
// Confirm answer it. A confirmation no gateway can carry out is refused by the
// server (409 no_gateway): the notice says so and the request stays pending.
// A viewer sees the request, with Close only.
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useNotice } from '../../../components/notice.tsx';
import { errorCode, isCancelled, isForbidden } from '../../../lib/api.ts';
import { useCan } from '../../../lib/permissions.ts';
import { useMeterShutdownAnswerMutation, useMeterShutdownQuery, type ShutdownAnswer } from '../api/meter-shutdown-api.ts';

export function ShutdownDialog({ meterId, name }: { meterId: string; name: string }) {
  const { t } = useTranslation('meters');
  const { t: common } = useTranslation();
  const notify = useNotice();
  const { data } = useMeterShutdownQuery(meterId);
  const [answer, { isLoading, originalArgs }] = useMeterShutdownAnswerMutation();
  const [closed, setClosed] = useState(false);
  const canAnswer = useCan('changeDevices');
  const close = () => { setClosed(true); };

  const respond = async (status: ShutdownAnswer) => {
    try {
      await answer({ id: meterId, status }).unwrap();
      notify(t('shutdown.sent'), 'info');
      close();
    } catch (error) {
      if (isCancelled(error)) return;
      if (errorCode(error) === 'no_gateway') {
        // Nothing was sent and the request is still pending: say so.
        notify(t('shutdown.noGateway'), 'error');
        return;
      }
      notify(isForbidden(error) ? t('shutdown.denied') : t('shutdown.failed'), 'error');
    }
  };
  const busy = (status: ShutdownAnswer) => isLoading && originalArgs?.status === status;

  return (
    <Dialog
      open={data?.status === 'requested' && !closed}
      onClose={close}
      aria-labelledby="shutdown-title"
      aria-describedby="shutdown-text"
    >
      <DialogTitle id="shutdown-title">{t('shutdown.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText id="shutdown-text">{t('shutdown.text', { name })}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{common('actions.close')}</Button>
        {canAnswer ? (<>
        <Button variant="outlined" disabled={isLoading} loading={busy('rejected')} onClick={() => { void respond('rejected'); }}>
          {t('shutdown.reject')}
        </Button>
        <Button color="error" variant="contained" disabled={isLoading} loading={busy('confirmed')} onClick={() => { void respond('confirmed'); }}>
          {t('shutdown.confirm')}
        </Button>
        </>) : null}
      </DialogActions>
    </Dialog>
  );
}
