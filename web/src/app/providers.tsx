import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';

import { DeviceImportContext, type RenderDeviceImport } from '../components/device-csv-actions.tsx';
import { DeviceSectionsContext, type RenderDeviceSections } from '../components/device-sections.tsx';
import { NoticeProvider } from '../components/notice.tsx';
import { DeviceAlarms } from '../features/alarms/components/device-alarms.tsx';
import { MeterConsumption } from '../features/alarms/components/device-consumption.tsx';
import { ImportButton } from '../features/device-import/components/import-button.tsx';
import { GatewayCredentialsSection } from '../features/gateway-credentials/components/gateway-credentials-section.tsx';
import { THEME_KEY } from '../lib/theme-choice.ts';
import type { AppStore } from './store.ts';
import { theme } from './theme.ts';

/**
 * What the detail pages show of other features: the device's alarms beside
 * its activity, a meter's consumption chart with its alarms marked, and a
 * gateway's MQTT credentials below the rest.
 */
const deviceSections: RenderDeviceSections = (deviceId, kind, place) => {
  switch (place) {
    case 'side':
      return <DeviceAlarms deviceId={deviceId} />;
    case 'consumption':
      return kind === 'meter' ? <MeterConsumption meterId={deviceId} /> : null;
    case 'below':
      return kind === 'gateway' ? <GatewayCredentialsSection gatewayId={deviceId} /> : null;
  }
};

/** The CSV import beside the title of the Gateways and Water Meters lists. */
const deviceImport: RenderDeviceImport = (props) => <ImportButton {...props} />;

export function AppProviders({ store, children }: { store: AppStore; children: ReactNode }) {
  return (
    <Provider store={store}>
      {/* The theme choice is read from localStorage before the first paint (noSsr). */}
      <ThemeProvider theme={theme} modeStorageKey={THEME_KEY} defaultMode="system" noSsr disableTransitionOnChange>
        <CssBaseline enableColorScheme />
        <NoticeProvider>
          <DeviceSectionsContext value={deviceSections}>
            <DeviceImportContext value={deviceImport}>{children}</DeviceImportContext>
          </DeviceSectionsContext>
        </NoticeProvider>
      </ThemeProvider>
    </Provider>
  );
}
