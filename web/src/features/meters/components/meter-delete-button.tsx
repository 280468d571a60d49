// Delete, offered only for a meter never seen (spec §2): a confirmation, then
// back to where the user came from.
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { useNotice } from '../../../components/notice.tsx';
import { isCancelled, isForbidden } from '../../../lib/api.ts';
import { idOf, meterName } from '../../../lib/format.ts';
import type { WaterMeter } from '../../../lib/types.ts';
import { useMeterDeleteMutation } from '../api/meter-detail-api.ts';
import { useGoBack } from '../hooks/use-go-back.ts';

export function MeterDeleteButton({ meter }: { meter: WaterMeter }) {
  const { t } = useTranslation('meters');
  const { t: common } = useTranslation();
  const notify = useNotice();
  const goBack = useGoBack('/water-meters');
  const [open, setOpen] = useState(false);
  const [remove, { isLoading }] = useMeterDeleteMutation();

  const confirm = async () => {
    try {
      await remove(idOf(meter._id)).unwrap();
      setOpen(false);
      goBack();
    } catch (error) {
      if (isCancelled(error)) return;
      setOpen(false);
      notify(isForbidden(error) ? t('detail.deleteDenied') : t('detail.deleteFailed'), 'error');
    }
  };

  return (
    <>
      <Button color="error" variant="outlined" onClick={() => { setOpen(true); }}>
        {common('actions.delete')}
      </Button>
      <ConfirmDialog
        open={open}
        title={t('detail.deleteTitle')}
        text={t('detail.deleteText', { name: meterName(meter) })}
        confirmLabel={common('actions.delete')}
        busy={isLoading}
        onConfirm={() => { void confirm(); }}
        onClose={() => { setOpen(false); }}
      />
    </>
  );
}
