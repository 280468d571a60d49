// Label/value rows of a detail panel. Values are rendered as text, never HTML.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

export interface Field {
  label: string;
  value: ReactNode;
}

export function FieldList({ fields }: { fields: readonly Field[] }) {
  return (
    <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'minmax(8rem, max-content) 1fr', gap: 0.75, m: 0 }}>
      {fields.map((field) => (
        <Box key={field.label} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {field.label}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
            {field.value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
