// 'Gateway Activities' (spec §2): a row with a meter drills into 'Activities
// for Meter {id}', which has a Back button and its own Load More.
import ArrowBackIcon from '../../../components/icons/arrow-back';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { ActivityList } from './activity-list.tsx';
import { Section } from './section.tsx';

export function GatewayActivitySection({ gatewayId }: { gatewayId: string }) {
  const { t } = useTranslation('gateways');
  const { t: tc } = useTranslation();
  const [meterId, setMeterId] = useState<string | null>(null);

  if (meterId) {
    const title = t('activity.forMeter', { meterId });
    return (
      <Section
        title={title}
        actions={
          <Button
            size="small"
            startIcon={<ArrowBackIcon />}
            aria-label={t('activity.backToAll')}
            onClick={() => {
              setMeterId(null);
            }}
          >
            {tc('actions.back')}
          </Button>
        }
      >
        <ActivityList key={meterId} label={title} gatewayId={gatewayId} meterId={meterId} />
      </Section>
    );
  }

  return (
    <Section title={t('activity.title')}>
      <ActivityList
        key=""
        label={t('activity.title')}
        gatewayId={gatewayId}
        meterId={null}
        onRowClick={(row) => {
          if (row.meterId) setMeterId(row.meterId);
        }}
      />
    </Section>
  );
}
