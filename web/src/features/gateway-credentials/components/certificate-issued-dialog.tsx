// A new client certificate: its certificate, private key and the broker's
// CA certificate, each saved as a PEM file (`{username}.crt`,
// `{username}.key`, GATEWAY_CA_FILENAME), and a warning that the private key
// cannot be shown again. As for a secret, a click beside the dialog does not
// close it, and what it shows is kept while it fades out, then forgotten.
import DownloadIcon from '../../../components/icons/download';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useTranslation } from 'react-i18next';

import { ShownOnceDialog } from '../../../components/shown-once-dialog.tsx';
import { GATEWAY_CA_FILENAME } from '../../../lib/constants.ts';
import { saveBlob } from '../../../lib/save-file.ts';
import type { IssuedCertificate } from '../api/gateway-credentials-api.ts';

const PEM_TYPE = 'application/x-pem-file';

interface Props {
  issued: IssuedCertificate | null;
  onClose: () => void;
}

export function CertificateIssuedDialog({ issued, onClose }: Props) {
  return (
    <ShownOnceDialog shown={issued} onClose={onClose}>
      {(id, kept) => <CertificateContent id={id} issued={kept} onClose={onClose} />}
    </ShownOnceDialog>
  );
}

function CertificateContent({ id, issued, onClose }: { id: string; issued: IssuedCertificate; onClose: () => void }) {
  const { t } = useTranslation('gatewayCredentials');
  const { username } = issued.credential;
  const files = [
    { label: t('certificate.downloadCertificate'), name: `${username}.crt`, pem: issued.certificate },
    { label: t('certificate.downloadPrivateKey'), name: `${username}.key`, pem: issued.privateKey },
    { label: t('certificate.downloadCa'), name: GATEWAY_CA_FILENAME, pem: issued.caCertificate },
  ];
  return (
    <>
      <DialogTitle id={`${id}-title`}>{t('certificate.title', { username })}</DialogTitle>
      <DialogContent>
        <DialogContentText id={`${id}-text`}>{t('certificate.text')}</DialogContentText>
        <Alert severity="warning" sx={{ mt: 2 }}>
          {t('certificate.warning')}
        </Alert>
        <Box sx={{ display: 'grid', gap: 1, mt: 2 }}>
          {files.map((file) => (
            <Button
              key={file.label}
              variant="outlined"
              startIcon={<DownloadIcon />}
              onClick={() => {
                saveBlob(new Blob([file.pem], { type: PEM_TYPE }), file.name);
              }}
            >
              {file.label}
            </Button>
          ))}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          {t('certificate.done')}
        </Button>
      </DialogActions>
    </>
  );
}
