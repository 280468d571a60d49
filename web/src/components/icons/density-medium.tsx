// The Material icon DensityMedium (Apache-2.0), drawn as @mui/icons-material 9.5.0 draws it
// (docs/web.md, "Icons").
import { createSvgIcon } from '@mui/material/SvgIcon';

export default createSvgIcon(<path d="M3 3h18v2H3zm0 16h18v2H3zm0-8h18v2H3z" />, 'DensityMedium');
