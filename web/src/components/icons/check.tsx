// The Material icon Check (Apache-2.0), drawn as @mui/icons-material 9.5.0 draws it
// (docs/web.md, "Icons").
import { createSvgIcon } from '@mui/material/SvgIcon';

export default createSvgIcon(<path d="M9 16.17 4.83 12l-1.42 1.41L9 19 21 7l-1.41-1.41z" />, 'Check');
