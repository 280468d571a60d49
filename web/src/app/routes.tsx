// The route table (spec §2). Every screen is its own chunk, loaded on demand,
// and so is the shell around the signed-in screens: /login loads neither.
import type { RouteObject } from 'react-router';

import { ErrorPage, NOT_FOUND } from './error-page.tsx';
import { lazyScreen } from './lazy-screen.tsx';
import { CHANGE_PASSWORD_PATH, RequireAuth } from './require-auth.tsx';

export const routes: RouteObject[] = [
  { path: '/login', ...lazyScreen(() => import('../features/auth/components/login-page.tsx')) },
  {
    element: <RequireAuth />,
    children: [
      // Outside the shell: while it is forced, nothing else may be used.
      {
        path: CHANGE_PASSWORD_PATH,
        ...lazyScreen(() => import('../features/auth/components/change-password-page.tsx')),
      },
      {
        ...lazyScreen(() => import('./shell/shell.tsx')),
        children: [
          { index: true, ...lazyScreen(() => import('../features/overview/components/overview-page.tsx')) },
          { path: 'gateways', ...lazyScreen(() => import('../features/gateways/components/gateways-page.tsx')) },
          {
            path: 'gateways/:gatewayId',
            ...lazyScreen(() => import('../features/gateways/components/gateway-detail-page.tsx')),
          },
          {
            path: 'lost-gateways',
            ...lazyScreen(() => import('../features/gateways/components/lost-gateways-page.tsx')),
          },
          { path: 'water-meters', ...lazyScreen(() => import('../features/meters/components/meters-page.tsx')) },
          {
            path: 'water-meters/:meterId',
            ...lazyScreen(() => import('../features/meters/components/meter-detail-page.tsx')),
          },
          {
            path: 'lost-water-meters',
            ...lazyScreen(() => import('../features/meters/components/lost-meters-page.tsx')),
          },
          {
            path: 'down-water-meters',
            ...lazyScreen(() => import('../features/meters/components/down-meters-page.tsx')),
          },
          { path: 'criticals', ...lazyScreen(() => import('../features/meters/components/criticals-page.tsx')) },
          { path: 'alarms', ...lazyScreen(() => import('../features/alarms/components/alarms-page.tsx')) },
          { path: 'map', ...lazyScreen(() => import('../features/map/components/map-page.tsx')) },
          {
            path: 'gateway-registration',
            ...lazyScreen(() => import('../features/registration/components/gateway-registration-page.tsx')),
          },
          {
            path: 'water-meter-registration',
            ...lazyScreen(() => import('../features/registration/components/meter-registration-page.tsx')),
          },
          {
            path: 'search',
            ...lazyScreen(() => import('../features/search/components/search-results-page.tsx')),
          },
          { path: 'profile', ...lazyScreen(() => import('../features/auth/components/profile-page.tsx')) },
          {
            path: 'admin/rules',
            ...lazyScreen(() => import('../features/alarm-rules/components/alarm-rules-page.tsx')),
          },
          { path: 'admin/users', ...lazyScreen(() => import('../features/users/components/users-page.tsx')) },
          {
            path: 'admin/api-keys',
            ...lazyScreen(() => import('../features/api-keys/components/api-keys-page.tsx')),
          },
          { path: 'admin/audit', ...lazyScreen(() => import('../features/audit/components/audit-page.tsx')) },
        ],
      },
    ],
  },
  // Any other path: the error screen, signed in or not.
  { path: '*', element: <ErrorPage detail={NOT_FOUND} /> },
];
