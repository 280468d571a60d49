// The theme selector of the top bar: System, Light or Dark, applied at once
// and saved for the signed-in user. It sits in the top bar, beside the
// language switch, rather than only on the profile page, because there it is
// found on every screen; the profile page offers the same choice (and is the
// place for it on very small screens, where the top bar keeps fewer buttons).
import DarkModeIcon from '../../../components/icons/dark-mode';
import LightModeIcon from '../../../components/icons/light-mode';
import SettingsBrightnessIcon from '../../../components/icons/settings-brightness';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { THEME_CHOICES, type ThemeChoice } from '../../../lib/theme-choice.ts';
import { useThemeChoice } from '../hooks/use-theme-choice.ts';

const ICONS: Record<ThemeChoice, typeof DarkModeIcon> = {
  system: SettingsBrightnessIcon,
  light: LightModeIcon,
  dark: DarkModeIcon,
};

export function ThemeMenuButton() {
  const { t } = useTranslation();
  const id = useId();
  const { choice, choose } = useThemeChoice();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const Icon = ICONS[choice];
  const label = t('theme.current', { theme: t(`theme.${choice}`) });
  return (
    <>
      <Tooltip title={label}>
        <IconButton
          color="inherit"
          aria-label={label}
          aria-haspopup="menu"
          aria-controls={anchor ? id : undefined}
          onClick={(event) => {
            setAnchor(event.currentTarget);
          }}
        >
          <Icon />
        </IconButton>
      </Tooltip>
      <Menu
        id={id}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => {
          setAnchor(null);
        }}
        slotProps={{ list: { 'aria-label': t('theme.choose') } }}
      >
        {THEME_CHOICES.map((option) => (
          <MenuItem
            key={option}
            role="menuitemradio"
            aria-checked={option === choice}
            selected={option === choice}
            onClick={() => {
              setAnchor(null);
              void choose(option);
            }}
          >
            {t(`theme.${option}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
