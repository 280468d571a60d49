// The five gauges: healthy gateways and meters as a share of their total, then
// lost gateways, lost meters and critical meters, always full (spec §2, §5).
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';

import { useOverviewCounts, type Health } from '../hooks/use-overview-counts.ts';
import { GaugeLink, type GaugeColour } from './gauge-link.tsx';

/** At most one decimal: 80, 66.7. */
export const percentText = (percent: number) => String(Math.round(percent * 10) / 10);

const FULL = 100;

interface HealthyProps {
  label: string;
  to: string;
  testId: string;
  health: Health | undefined;
}

function HealthyGauge({ label, to, testId, health }: HealthyProps) {
  const { t } = useTranslation('overview');
  if (!health) {
    return <GaugeLink label={label} to={to} testId={testId} value={t('gauges.pending')} percent={0} colour="success" accessibleName={label} />;
  }
  const value = String(health.healthy);
  const percent = percentText(health.percent);
  const total = String(health.total);
  return (
    <GaugeLink
      label={label}
      to={to}
      testId={testId}
      value={value}
      percent={health.percent}
      colour="success"
      accessibleName={t('gauges.healthyName', { label, value, total, percent })}
      caption={<span data-testid={`${testId}-percent`}>{t('gauges.share', { percent, total })}</span>}
    />
  );
}

interface CountProps {
  label: string;
  to: string;
  testId: string;
  count: number | undefined;
  colour: GaugeColour;
}

function CountGauge({ label, to, testId, count, colour }: CountProps) {
  const { t } = useTranslation('overview');
  const value = count === undefined ? t('gauges.pending') : String(count);
  return (
    <GaugeLink
      label={label}
      to={to}
      testId={testId}
      value={value}
      percent={FULL}
      colour={colour}
      accessibleName={count === undefined ? label : t('gauges.countName', { label, value })}
    />
  );
}

export function OverviewGauges() {
  const { t } = useTranslation('overview');
  const counts = useOverviewCounts();
  return (
    <Box
      component="section"
      aria-label={t('gauges.label')}
      sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fit, minmax(160px, 1fr))', mb: 3 }}
    >
      <HealthyGauge label={t('gauges.healthyGateways')} to="/gateways" testId="gauge-healthy-gateways" health={counts.gateways} />
      <HealthyGauge label={t('gauges.healthyMeters')} to="/water-meters" testId="gauge-healthy-meters" health={counts.meters} />
      <CountGauge label={t('gauges.lostGateways')} to="/lost-gateways" testId="gauge-lost-gateways" count={counts.lostGateways} colour="warning" />
      <CountGauge label={t('gauges.lostMeters')} to="/lost-water-meters" testId="gauge-lost-meters" count={counts.lostMeters} colour="warning" />
      <CountGauge label={t('gauges.criticalMeters')} to="/criticals" testId="gauge-critical-meters" count={counts.criticalMeters} colour="error" />
    </Box>
  );
}
