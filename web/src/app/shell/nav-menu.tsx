// Small screens: a menu button with the entries; very small screens also
// get Profile, Switch Language and Logout (spec §2, Shell), which leave the top bar.
import MenuIcon from '../../components/icons/menu';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { useNavItems } from './nav-items.ts';

interface Props {
  veryNarrow: boolean;
  onSwitchLanguage: () => void;
  onLogout: () => void;
}

export function NavMenu({ veryNarrow, onSwitchLanguage, onLogout }: Props) {
  const { t } = useTranslation();
  const items = useNavItems();
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => {
    setAnchor(null);
  };
  return (
    <>
      <IconButton
        color="inherit"
        edge="start"
        aria-label={t('nav.openMenu')}
        aria-haspopup="menu"
        aria-controls={anchor ? 'nav-menu' : undefined}
        onClick={(e) => {
          setAnchor(e.currentTarget);
        }}
      >
        <MenuIcon />
      </IconButton>
      <Menu id="nav-menu" anchorEl={anchor} open={anchor !== null} onClose={close}>
        {items.map((item) => (
          <MenuItem
            key={item.to}
            onClick={() => {
              close();
              void navigate(item.to);
            }}
          >
            {t(item.key)}
          </MenuItem>
        ))}
        {veryNarrow
          ? [
              <MenuItem
                key="profile"
                onClick={() => {
                  close();
                  void navigate('/profile');
                }}
              >
                {t('nav.profile')}
              </MenuItem>,
              <MenuItem key="lang" onClick={onSwitchLanguage}>
                {t('nav.switchLanguage')}
              </MenuItem>,
              <MenuItem
                key="logout"
                onClick={() => {
                  close();
                  onLogout();
                }}
              >
                {t('nav.logout')}
              </MenuItem>,
            ]
          : null}
      </Menu>
    </>
  );
}
