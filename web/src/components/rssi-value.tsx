// An RSSI reading (spec §9): a dot in its colour (green above -60, orange
// above -80, red otherwise) and the number as plain text, which keeps the
// text's contrast whatever the colour.
import Box from '@mui/material/Box';

import { rssiColour } from '../lib/format.ts';

export function RssiValue({ rssi }: { rssi: number }) {
  const colour = rssiColour(rssi);
  return (
    <Box component="span" data-colour={colour} sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75 }}>
      <Box component="span" aria-hidden sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: `${colour}.main` }} />
      {rssi}
    </Box>
  );
}
