// The alarm grid's column choice, density and page size, kept per browser
// (localStorage): an operator sets them once. A stored value that is not
// valid falls back to the default.
import type { GridColumnVisibilityModel, GridDensity } from '@mui/x-data-grid';
import { useState } from 'react';

const KEY = 'wm.alarms.grid';
export const PAGE_SIZES = [25, 50, 100] as const;
const DENSITIES: readonly GridDensity[] = ['compact', 'standard', 'comfortable'];

export interface GridPreferences {
  columns: GridColumnVisibilityModel;
  density: GridDensity;
  pageSize: number;
}

/** Columns hidden until the user shows them. */
const DEFAULTS: GridPreferences = {
  columns: { raisedBy: false, acknowledgedAt: false, clearedAt: false, closedAt: false, updatedAt: false, id: false },
  density: 'standard',
  pageSize: 25,
};

function stored(): GridPreferences {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(KEY) ?? 'null');
    if (typeof value !== 'object' || value === null) return DEFAULTS;
    const { columns, density, pageSize } = value as Record<string, unknown>;
    const shown: GridColumnVisibilityModel = Object.fromEntries(
      Object.entries(typeof columns === 'object' && columns !== null ? columns : {}).filter(
        (entry): entry is [string, boolean] => typeof entry[1] === 'boolean',
      ),
    );
    return {
      columns: { ...DEFAULTS.columns, ...shown },
      density: DENSITIES.find((d) => d === density) ?? DEFAULTS.density,
      pageSize: PAGE_SIZES.find((size) => size === pageSize) ?? DEFAULTS.pageSize,
    };
  } catch {
    return DEFAULTS;
  }
}

export function useGridPreferences() {
  const [preferences, setPreferences] = useState(stored);
  const change = (patch: Partial<GridPreferences>) => {
    setPreferences((current) => {
      const next = { ...current, ...patch };
      localStorage.setItem(KEY, JSON.stringify(next));
      return next;
    });
  };
  return { preferences, change };
}

export { DENSITIES };
