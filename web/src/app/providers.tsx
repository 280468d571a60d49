import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { lazy, Suspense, type ReactNode } from 'react';
import { Provider } from 'react-redux';

import { DeviceImportContext, type RenderDeviceImport } from '../components/device-import-context.ts';
import { DeviceSectionsContext, type RenderDeviceSections } from '../components/device-sections.tsx';
import { NoticeProvider } from '../components/notice.tsx';
import { THEME_KEY } from '../lib/theme-choice.ts';
import type { AppStore } from './store.ts';
import { theme } from './theme.ts';

// Each is loaded with the first page that shows it, not with the app's entry.
const DeviceAlarms = lazy(async () => ({
  default: (await import('../features/alarms/components/device-alarms.tsx')).DeviceAlarms,
}));
const MeterConsumption = lazy(async () => ({
  default: (await import('../features/alarms/components/device-consumption.tsx')).MeterConsumption,
}));
const GatewayCredentialsSection = lazy(async () => ({
  default: (await import('../features/gateway-credentials/components/gateway-credentials-section.tsx'))
    .GatewayCredentialsSection,
}));
const ImportButton = lazy(async () => ({
  default: (await import('../features/device-import/components/import-button.tsx')).ImportButton,
}));

/**
 * What the detail pages show of other features: the device's alarms beside
 * its activity, a meter's consumption chart with its alarms marked, and a
 * gateway's MQTT credentials below the rest.
 */
const deviceSections: RenderDeviceSections = (deviceId, kind, place) => (
  <Suspense fallback={null}>
    {place === 'side' ? <DeviceAlarms deviceId={deviceId} /> : null}
    {place === 'consumption' && kind === 'meter' ? <MeterConsumption meterId={deviceId} /> : null}
    {place === 'below' && kind === 'gateway' ? <GatewayCredentialsSection gatewayId={deviceId} /> : null}
  </Suspense>
);

/** The CSV import beside the title of the Gateways and Water Meters lists. */
const deviceImport: RenderDeviceImport = (props) => (
  <Suspense fallback={null}>
    <ImportButton {...props} />
  </Suspense>
);

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
