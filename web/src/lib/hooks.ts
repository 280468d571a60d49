// Typed Redux hooks. The state type is declared structurally so shared code
// does not import from `app/`.
import { useDispatch, useSelector } from 'react-redux';
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';

import type { SessionState } from './session.ts';

export interface SharedState {
  session: SessionState;
}

export const useAppDispatch = useDispatch.withTypes<ThunkDispatch<SharedState, unknown, UnknownAction>>();
export const useAppSelector = useSelector.withTypes<SharedState>();
