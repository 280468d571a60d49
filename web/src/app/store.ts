// `createStore()` builds a fresh store; the app makes one and every test its own.
import { combineSlices, configureStore } from '@reduxjs/toolkit';

import { api } from '../lib/api.ts';
import { sessionSlice } from '../lib/session.ts';

const rootReducer = combineSlices(sessionSlice, api);

export type RootState = ReturnType<typeof rootReducer>;

export function createStore(preloadedState?: Partial<RootState>) {
  return configureStore({
    reducer: rootReducer,
    middleware: (getDefault) => getDefault().concat(api.middleware),
    ...(preloadedState ? { preloadedState } : {}),
  });
}

export type AppStore = ReturnType<typeof createStore>;
export type AppDispatch = AppStore['dispatch'];
