// How a receiver verifies a webhook request, folded under a link-like
// button: the three headers, the signature's recipe and the checks to make.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import Typography from '@mui/material/Typography';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

const CODE_STYLE = { fontFamily: 'monospace', color: 'text.primary', bgcolor: 'action.hover', borderRadius: 0.5, px: 0.5 } as const;

function Header({ name, children }: { name: string; children: ReactNode }) {
  return (
    <li>
      <Box component="code" sx={{ ...CODE_STYLE, whiteSpace: 'nowrap' }}>
        {name}
      </Box>{' '}
      {children}
    </li>
  );
}

export function WebhookHelp() {
  const { t } = useTranslation('alarmRules');
  const id = useId();
  const [open, setOpen] = useState(false);
  return (
    <Box sx={{ mb: 2 }}>
      <Button
        variant="text"
        size="small"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => {
          setOpen(!open);
        }}
        sx={{ px: 0, textDecoration: 'underline', textTransform: 'none' }}
      >
        {t('help.toggle')}
      </Button>
      <Collapse in={open} id={id}>
        <Typography variant="body2" component="div" color="text.secondary" sx={{ mt: 1 }}>
          {t('help.intro')}
          <Box component="ul" sx={{ my: 1, pl: 3 }}>
            <Header name="X-WMeter-Timestamp">{t('help.timestamp')}</Header>
            <Header name="X-WMeter-Signature: sha256=<hex>">
              {t('help.signature')}
              <Box component="pre" sx={{ ...CODE_STYLE, display: 'block', my: 0.5, p: 1, overflowX: 'auto' }}>
                {t('help.formula')}
              </Box>
            </Header>
            <Header name="X-WMeter-Delivery">{t('help.delivery')}</Header>
          </Box>
          {t('help.steps')}
        </Typography>
      </Collapse>
    </Box>
  );
}
