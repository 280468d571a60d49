// A loaded meter's page: fields, valve commands, the consumption chart and
// records on the left; alerts, alarms, leak detection and activity on the
// right; stacked below 1000 px (theme `md`).
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';

import { DeviceSections } from '../../../components/device-sections.tsx';
import { idOf, meterName } from '../../../lib/format.ts';
import type { WaterMeter } from '../../../lib/types.ts';
import { BleActivitySection } from './ble-activity-section.tsx';
import { ConsumptionTable } from './consumption-table.tsx';
import { CriticalAlertsTable } from './critical-alerts-table.tsx';
import { GatewayActivityTable } from './gateway-activity-table.tsx';
import { LeakDetectionSection } from './leak-detection-section.tsx';
import { MeterInfoPanel } from './meter-info-panel.tsx';
import { MeterTitle } from './meter-title.tsx';
import { ShutdownDialog } from './shutdown-dialog.tsx';
import { ValveCommandsTable } from './valve-commands-table.tsx';

export function MeterDetail({ meter }: { meter: WaterMeter }) {
  const id = idOf(meter._id);
  return (
    <Box>
      <MeterTitle meter={meter} />
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          alignItems: 'start',
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' },
        }}
      >
        <Stack spacing={2} sx={{ minWidth: 0 }}>
          <MeterInfoPanel meter={meter} />
          <ValveCommandsTable meterId={id} />
          <DeviceSections deviceId={id} kind="meter" place="consumption" />
          <ConsumptionTable meterId={id} />
        </Stack>
        <Stack spacing={2} sx={{ minWidth: 0 }}>
          <CriticalAlertsTable meterId={id} critical={meter.criticalState} />
          <DeviceSections deviceId={id} kind="meter" place="side" />
          <LeakDetectionSection meterId={id} />
          <BleActivitySection meterId={id} />
          <GatewayActivityTable meterId={id} />
        </Stack>
      </Box>
      <ShutdownDialog key={id} meterId={id} name={meterName(meter)} />
    </Box>
  );
}
