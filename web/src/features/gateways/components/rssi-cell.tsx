// An RSSI value coloured green, orange or red (spec §9), with the number as text.
import Box from '@mui/material/Box';

import { rssiColour } from '../../../lib/format.ts';

export function RssiCell({ rssi }: { rssi: number }) {
  const colour = rssiColour(rssi);
  return (
    <Box component="span" data-colour={colour} sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75, color: `${colour}.main`, fontWeight: 600 }}>
      <Box component="span" aria-hidden sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: `${colour}.main` }} />
      {rssi}
    </Box>
  );
}
