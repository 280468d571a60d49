// The Water Meters list's Export menu, beside its title (the spec fixes the
// rest of the page): the billing export, for any role.
import FileDownloadIcon from '../../../components/icons/file-download';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { BillingExportDialog } from './billing-export-dialog.tsx';

export function ExportMenu() {
  const { t } = useTranslation('meters');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [billing, setBilling] = useState(false);
  const menuId = useId();
  return (
    <>
      <Button
        size="small"
        startIcon={<FileDownloadIcon />}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => { setAnchor(event.currentTarget); }}
      >
        {t('billing.menu')}
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={() => { setAnchor(null); }}>
        <MenuItem onClick={() => { setAnchor(null); setBilling(true); }}>{t('billing.open')}</MenuItem>
      </Menu>
      <BillingExportDialog open={billing} onClose={() => { setBilling(false); }} />
    </>
  );
}
