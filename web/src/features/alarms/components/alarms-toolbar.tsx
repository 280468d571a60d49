// The alarm grid's toolbar: column choice, density, CSV export of the current
// filter and, for those who may act, acknowledge the selected rows. What the
// buttons do comes from the page through AlarmToolbarContext.
import DensityMediumIcon from '../../../components/icons/density-medium';
import DoneAllIcon from '../../../components/icons/done-all';
import FileDownloadIcon from '../../../components/icons/file-download';
import ViewColumnIcon from '../../../components/icons/view-column';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import {
  ColumnsPanelTrigger,
  gridDensitySelector,
  Toolbar,
  useGridApiContext,
  useGridSelector,
  type GridDensity,
} from '@mui/x-data-grid';
import { createContext, use, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { DENSITIES } from '../hooks/use-grid-preferences.ts';

export interface AlarmToolbarActions {
  /** How many rows are selected; null when rows cannot be selected. */
  selected: number | null;
  onAcknowledge: () => void;
  onExport: () => void;
  exporting: boolean;
}

export const AlarmToolbarContext = createContext<AlarmToolbarActions | null>(null);

function DensityMenu() {
  const { t } = useTranslation('alarms');
  const apiRef = useGridApiContext();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const current = useGridSelector(apiRef, gridDensitySelector);
  const choose = (density: GridDensity) => {
    apiRef.current.setDensity(density);
    setAnchor(null);
  };
  return (
    <>
      <Button
        size="small"
        startIcon={<DensityMediumIcon />}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => { setAnchor(event.currentTarget); }}
      >
        {t('toolbar.density')}
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={() => { setAnchor(null); }}>
        {DENSITIES.map((density) => (
          <MenuItem key={density} selected={density === current} onClick={() => { choose(density); }}>
            {t(`toolbar.densities.${density}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

export function AlarmsToolbar() {
  const { t } = useTranslation('alarms');
  const actions = use(AlarmToolbarContext);
  return (
    <Toolbar aria-label={t('toolbar.label')} style={{ justifyContent: 'flex-start', flexWrap: 'wrap', gap: 4 }}>
      <ColumnsPanelTrigger render={<Button size="small" startIcon={<ViewColumnIcon />} />}>
        {t('toolbar.columns')}
      </ColumnsPanelTrigger>
      <DensityMenu />
      {actions ? (
        <Button size="small" startIcon={<FileDownloadIcon />} onClick={actions.onExport} loading={actions.exporting}>
          {actions.exporting ? t('toolbar.exporting') : t('toolbar.export')}
        </Button>
      ) : null}
      {actions && actions.selected !== null ? (
        <Button
          size="small"
          variant="contained"
          startIcon={<DoneAllIcon />}
          disabled={actions.selected === 0}
          onClick={actions.onAcknowledge}
          sx={{ ml: 'auto' }}
        >
          {t('toolbar.acknowledge', { count: actions.selected })}
        </Button>
      ) : null}
    </Toolbar>
  );
}
