// The Material icon FileDownload (Apache-2.0), drawn as @mui/icons-material 9.5.0 draws it
// (docs/web.md, "Icons").
import { createSvgIcon } from '@mui/material/SvgIcon';

export default createSvgIcon(<path d="M19 9h-4V3H9v6H5l7 7zM5 18v2h14v-2z" />, 'FileDownload');
