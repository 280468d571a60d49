// Delete, offered only for a device never seen (spec §2): a confirmation, then
// back to where the user came from, or to `fallback` (spec §4). A failure is
// told in a notice, 'Action denied' on 403 (§8); a cancelled request is not.
import DeleteIcon from './icons/delete';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { isCancelled, isForbidden } from '../lib/api.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { useNotice } from './notice.tsx';
import { useGoBack } from './use-go-back.ts';

/** What a `use…DeleteMutation()` hook returns, as far as this button needs it. */
export type DeleteMutation = readonly [(id: string) => { unwrap: () => Promise<unknown> }, { isLoading: boolean }];

export interface DeleteTexts {
  title: string;
  text: string;
  denied: string;
  failed: string;
}

interface Props {
  id: string;
  mutation: DeleteMutation;
  texts: DeleteTexts;
  /** Where Back goes when the page was opened directly. */
  fallback: string;
}

export function DeleteDeviceButton({ id, mutation: [remove, { isLoading }], texts, fallback }: Props) {
  const { t } = useTranslation();
  const notify = useNotice();
  const goBack = useGoBack(fallback);
  const [open, setOpen] = useState(false);
  const close = () => {
    setOpen(false);
  };

  const confirm = async () => {
    try {
      await remove(id).unwrap();
      close();
      goBack();
    } catch (error) {
      if (isCancelled(error)) return;
      close();
      notify(isForbidden(error) ? texts.denied : texts.failed, 'error');
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
        {t('actions.delete')}
      </Button>
      <ConfirmDialog
        open={open}
        title={texts.title}
        text={texts.text}
        confirmLabel={t('actions.delete')}
        busy={isLoading}
        onConfirm={() => void confirm()}
        onClose={close}
      />
    </>
  );
}
