import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';

import { NoticeProvider } from '../components/notice.tsx';
import type { AppStore } from './store.ts';
import { theme } from './theme.ts';

export function AppProviders({ store, children }: { store: AppStore; children: ReactNode }) {
  return (
    <Provider store={store}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <NoticeProvider>{children}</NoticeProvider>
      </ThemeProvider>
    </Provider>
  );
}
