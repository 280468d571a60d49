// The route table (spec §2). Every screen is its own chunk, loaded on demand.
import type { RouteObject } from 'react-router';

import { ErrorPage } from './error-page.tsx';
import { CHANGE_PASSWORD_PATH, RequireAuth } from './require-auth.tsx';
import { PageFallback, Shell } from './shell/shell.tsx';

type Loader = () => Promise<{ default: React.ComponentType }>;
const page = (load: Loader) => async () => ({ Component: (await load()).default });

export const routes: RouteObject[] = [
  {
    errorElement: <ErrorPage />,
    hydrateFallbackElement: <PageFallback />,
    children: [
      { path: '/login', lazy: page(() => import('../features/auth/components/login-page.tsx')) },
      {
        element: <RequireAuth />,
        children: [
          // Outside the shell: while it is forced, nothing else may be used.
          {
            path: CHANGE_PASSWORD_PATH,
            lazy: page(() => import('../features/auth/components/change-password-page.tsx')),
          },
          {
            element: <Shell />,
            children: [
              { index: true, lazy: page(() => import('../features/overview/components/overview-page.tsx')) },
              { path: 'gateways', lazy: page(() => import('../features/gateways/components/gateways-page.tsx')) },
              {
                path: 'gateways/:gatewayId',
                lazy: page(() => import('../features/gateways/components/gateway-detail-page.tsx')),
              },
              {
                path: 'lost-gateways',
                lazy: page(() => import('../features/gateways/components/lost-gateways-page.tsx')),
              },
              { path: 'water-meters', lazy: page(() => import('../features/meters/components/meters-page.tsx')) },
              {
                path: 'water-meters/:meterId',
                lazy: page(() => import('../features/meters/components/meter-detail-page.tsx')),
              },
              {
                path: 'lost-water-meters',
                lazy: page(() => import('../features/meters/components/lost-meters-page.tsx')),
              },
              {
                path: 'down-water-meters',
                lazy: page(() => import('../features/meters/components/down-meters-page.tsx')),
              },
              { path: 'criticals', lazy: page(() => import('../features/meters/components/criticals-page.tsx')) },
              { path: 'alarms', lazy: page(() => import('../features/alarms/components/alarms-page.tsx')) },
              { path: 'map', lazy: page(() => import('../features/map/components/map-page.tsx')) },
              {
                path: 'gateway-registration',
                lazy: page(() => import('../features/registration/components/gateway-registration-page.tsx')),
              },
              {
                path: 'water-meter-registration',
                lazy: page(() => import('../features/registration/components/meter-registration-page.tsx')),
              },
              {
                path: 'search',
                lazy: page(() => import('../features/search/components/search-results-page.tsx')),
              },
              { path: 'profile', lazy: page(() => import('../features/auth/components/profile-page.tsx')) },
              {
                path: 'admin/rules',
                lazy: page(() => import('../features/alarm-rules/components/alarm-rules-page.tsx')),
              },
              { path: 'admin/users', lazy: page(() => import('../features/users/components/users-page.tsx')) },
              {
                path: 'admin/api-keys',
                lazy: page(() => import('../features/api-keys/components/api-keys-page.tsx')),
              },
              { path: 'admin/audit', lazy: page(() => import('../features/audit/components/audit-page.tsx')) },
            ],
          },
        ],
      },
    ],
  },
];
