// Leak detection on the meter page (docs/analytics.md, Thresholds per
// meter): the four thresholds in force, each the meter's own (with the
// default beside it) or the network's default, and who last set them.
// Operators and admins edit them; a viewer gets no edit control at all.
// `thresholds` hints keep the section live.
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { FieldList } from '../../../components/field-list.tsx';
import { TableSection } from '../../../components/table-section.tsx';
import { useTimestamp } from '../../../components/use-timestamp.ts';
import { useCan } from '../../../lib/permissions.ts';
import { useLoggedError } from '../../../lib/use-logged-error.ts';
import { THRESHOLD_NAMES, useGetThresholdsQuery, type MeterThresholds } from '../api/thresholds-api.ts';
import { useThresholdWords } from '../hooks/use-threshold-words.ts';
import { ThresholdsDialog } from './thresholds-dialog.tsx';

function ThresholdList({ thresholds }: { thresholds: MeterThresholds }) {
  const { t } = useTranslation('meters');
  const words = useThresholdWords();
  const timestamp = useTimestamp();
  const setter = thresholds.updatedBy?.name;
  const fields = THRESHOLD_NAMES.map((name) => {
    const value = words(name, thresholds.effective[name]);
    const own = thresholds.own[name] !== null;
    return {
      label: t(`thresholds.names.${name}`),
      value: own ? t('thresholds.own', { value, default: words(name, thresholds.defaults[name]) }) : t('thresholds.default', { value }),
    };
  });
  return (
    <>
      <FieldList fields={fields} />
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
        {setter && thresholds.updatedAt
          ? t('thresholds.setBy', { name: setter, at: timestamp(thresholds.updatedAt) })
          : t('thresholds.neverSet')}
      </Typography>
    </>
  );
}

export function LeakDetectionSection({ meterId }: { meterId: string }) {
  const { t } = useTranslation('meters');
  const canEdit = useCan('changeDevices');
  const [editing, setEditing] = useState(false);
  const { data, isLoading, error } = useGetThresholdsQuery(meterId);
  useLoggedError(error, 'thresholds');
  return (
    <TableSection
      title={t('thresholds.title')}
      loading={isLoading}
      action={
        canEdit && data ? (
          <Button size="small" variant="outlined" onClick={() => { setEditing(true); }}>
            {t('thresholds.edit')}
          </Button>
        ) : null
      }
    >
      {data ? (
        <ThresholdList thresholds={data} />
      ) : (
        <Typography variant="body2" color="text.secondary">{t('thresholds.loadFailed')}</Typography>
      )}
      {canEdit && data ? <ThresholdsDialog open={editing} thresholds={data} onClose={() => { setEditing(false); }} /> : null}
    </TableSection>
  );
}
