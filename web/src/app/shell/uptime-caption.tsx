// The server's uptime, polled every 5 s (spec §7 `GET /api/proxy/`).
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

import { api } from '../../lib/api.ts';
import { UPTIME_POLL_MS } from '../../lib/constants.ts';
import { splitUptime } from '../../lib/format.ts';

const uptimeApi = api.injectEndpoints({
  endpoints: (build) => ({
    uptime: build.query<number, undefined>({
      query: () => 'api/proxy/',
      transformResponse: (body: { uptime: number }) => body.uptime,
    }),
  }),
});

export function UptimeCaption() {
  const { t } = useTranslation();
  const { data } = uptimeApi.useUptimeQuery(undefined, { pollingInterval: UPTIME_POLL_MS });
  if (data === undefined) return null;
  return (
    <Typography variant="caption" sx={{ whiteSpace: 'nowrap' }} data-testid="uptime">
      {t('topBar.uptime', splitUptime(data))}
    </Typography>
  );
}
