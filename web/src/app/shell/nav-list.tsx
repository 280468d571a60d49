import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';

import { useNavItems } from './nav-items.ts';

/** The entries as links; the current one is marked for assistive tech. */
export function NavList({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation();
  const items = useNavItems();
  return (
    <List component="nav" aria-label={t('nav.label')} dense>
      {items.map((item) => (
        <ListItemButton
          key={item.to}
          component={NavLink}
          to={item.to}
          end={item.to === '/'}
          onClick={onNavigate}
          sx={{ '&.active': { bgcolor: 'action.selected', fontWeight: 600 } }}
        >
          <ListItemText primary={t(item.key)} />
        </ListItemButton>
      ))}
    </List>
  );
}
