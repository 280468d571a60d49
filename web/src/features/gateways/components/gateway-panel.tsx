// The left panel: the fields with Edit and Delete, or the edit form (spec §2, §4);
// a viewer gets the fields only.
import EditIcon from '../../../components/icons/edit';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { Gateway } from '../../../lib/types.ts';
import { useCan } from '../../../lib/permissions.ts';
import { GatewayDeleteButton } from './gateway-delete-button.tsx';
import { GatewayEditForm } from './gateway-edit-form.tsx';
import { GatewayFields } from './gateway-fields.tsx';

export function GatewayPanel({ gateway }: { gateway: Gateway }) {
  const { t } = useTranslation('gateways');
  const { t: tc } = useTranslation();
  const [editing, setEditing] = useState(false);
  const canChange = useCan('changeDevices');
  return (
    <Paper variant="outlined" component="section" aria-labelledby="gateway-panel-title" sx={{ p: 2, minWidth: 0 }}>
      <Typography id="gateway-panel-title" variant="h6" component="h2" sx={{ mb: 1 }}>
        {editing ? t('edit.title') : t('detail.panel')}
      </Typography>
      {editing ? (
        <GatewayEditForm
          gateway={gateway}
          onDone={() => {
            setEditing(false);
          }}
        />
      ) : (
        <>
          <GatewayFields gateway={gateway} />
          {canChange ? (<Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 2 }}>
            <Button
              variant="contained"
              startIcon={<EditIcon />}
              onClick={() => {
                setEditing(true);
              }}
            >
              {tc('actions.edit')}
            </Button>
            {gateway.lastseen === null ? <GatewayDeleteButton gateway={gateway} /> : null}
          </Box>) : null}
        </>
      )}
    </Paper>
  );
}
