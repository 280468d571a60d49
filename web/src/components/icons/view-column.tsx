// The Material icon ViewColumn (Apache-2.0), drawn as @mui/icons-material 9.5.0 draws it
// (docs/web.md, "Icons").
import { createSvgIcon } from '@mui/material/SvgIcon';

export default createSvgIcon(<path d="M14.67 5v14H9.33V5zm1 14H21V5h-5.33zm-7.34 0V5H3v14z" />, 'ViewColumn');
