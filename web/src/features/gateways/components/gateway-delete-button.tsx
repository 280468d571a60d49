// Delete, offered only for a gateway never seen (spec §2): a confirmation,
// then back to where the user came from (spec §4).
import DeleteIcon from '@mui/icons-material/Delete';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { useNotice } from '../../../components/notice.tsx';
import { isCancelled, isForbidden } from '../../../lib/api.ts';
import { gatewayName, idOf } from '../../../lib/format.ts';
import type { Gateway } from '../../../lib/types.ts';
import { useGatewayDeleteMutation } from '../api/gateways-api.ts';
import { useGoBack } from '../hooks/use-go-back.ts';

export function GatewayDeleteButton({ gateway }: { gateway: Gateway }) {
  const { t } = useTranslation('gateways');
  const { t: tc } = useTranslation();
  const notify = useNotice();
  const goBack = useGoBack();
  const [open, setOpen] = useState(false);
  const [remove, { isLoading }] = useGatewayDeleteMutation();
  const close = () => {
    setOpen(false);
  };

  const confirm = async () => {
    try {
      await remove(idOf(gateway._id)).unwrap();
      close();
      goBack();
    } catch (error) {
      if (isCancelled(error)) return;
      close();
      notify(isForbidden(error) ? t('detail.deleteDenied') : t('detail.deleteFailed'), 'error');
    }
  };

  return (
    <>
      <Button
        variant="outlined"
        color="error"
        startIcon={<DeleteIcon />}
        onClick={() => {
          setOpen(true);
        }}
      >
        {tc('actions.delete')}
      </Button>
      <ConfirmDialog
        open={open}
        title={t('detail.deleteTitle')}
        text={t('detail.deleteText', { name: gatewayName(gateway) })}
        confirmLabel={tc('actions.delete')}
        busy={isLoading}
        onConfirm={() => void confirm()}
        onClose={close}
      />
    </>
  );
}
