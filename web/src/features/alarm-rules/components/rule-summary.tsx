// What a rule matches and where it sends, as a row of the rules table shows
// them: types and severities as chips ("any" when none), the devices and
// the recipients or URL as text.
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

import type { Channel, Devices, RuleMatch } from '../api/rule-types.ts';
import { useRuleWords } from '../hooks/use-rule-words.ts';

function Chips({ labels, none }: { labels: string[]; none: string }) {
  if (labels.length === 0) return <Typography variant="body2">{none}</Typography>;
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
      {labels.map((label) => (
        <Chip key={label} size="small" variant="outlined" label={label} />
      ))}
    </Box>
  );
}

function DevicesText({ devices }: { devices: Devices }) {
  const { t } = useTranslation('alarmRules');
  const text =
    devices.scope === 'all'
      ? t('match.allDevices')
      : devices.scope === 'list'
        ? t('match.devices', { ids: devices.ids.join(', ') })
        : t('match.gateway', { id: devices.gatewayId });
  return <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>{text}</Typography>;
}

export function MatchSummary({ match }: { match: RuleMatch }) {
  const { t } = useTranslation('alarmRules');
  const words = useRuleWords();
  return (
    <Box sx={{ display: 'grid', gap: 0.5 }}>
      <Chips labels={match.types.map(words.type)} none={t('match.anyType')} />
      <Chips labels={match.severities.map(words.severity)} none={t('match.anySeverity')} />
      <DevicesText devices={match.devices} />
    </Box>
  );
}

export function ChannelSummary({ channel }: { channel: Channel }) {
  const { t } = useTranslation('alarmRules');
  return (
    <>
      <Typography variant="caption" color="text.secondary" component="div">
        {t(`dialog.kinds.${channel.kind}`)}
      </Typography>
      <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
        {channel.kind === 'email' ? channel.to.join(', ') : channel.url}
      </Typography>
    </>
  );
}
