// The single RTK Query API (STYLE.md, RTK Query). Features add their endpoints
// with `api.injectEndpoints` from their own `api/` files.
import {
  createApi,
  fetchBaseQuery,
  type BaseQueryApi,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';

import { passwordChangeRequired, signedOut, tokenRefreshed, type SessionState } from './session.ts';

/** The refresh route refuses a request without this header (a CSRF guard). */
export const REFRESH_HEADER = 'X-WMeter-Refresh';

const AUTH_PATHS = ['api/auth/login', 'api/auth/refresh', 'api/auth/logout'];

/** The 403 of every route but the password change while the password is one-time. */
export const PASSWORD_CHANGE_REQUIRED = 'password_change_required';

function tokenOf(api: Pick<BaseQueryApi, 'getState'>): string | null {
  return (api.getState() as { session: SessionState }).session.token;
}

/** The base path `/` (spec §7), absolute so that it also resolves outside a page. */
const BASE_URL = new URL('/', window.location.href).href;

const rawBaseQuery = fetchBaseQuery({
  baseUrl: BASE_URL,
  credentials: 'include',
  prepareHeaders: (headers, api) => {
    const token = tokenOf(api);
    if (token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
    return headers;
  },
});

type Query = BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError>;

function urlOf(args: string | FetchArgs): string {
  const url = typeof args === 'string' ? args : args.url;
  return url.replace(/^\//, '');
}

/**
 * One refresh at a time: every request that meets a 401 while a refresh runs
 * waits for that refresh, then retries once with the new token (spec §4).
 */
let refreshing: Promise<string | null> | null = null;

/** `POST /api/auth/refresh` with the cookie; the new token, or null. */
async function refreshAccessToken(
  api: BaseQueryApi,
  extraOptions: object = {},
): Promise<string | null> {
  refreshing ??= (async () => {
    const result = await rawBaseQuery(
      { url: 'api/auth/refresh', method: 'POST', headers: { [REFRESH_HEADER]: '1' } },
      api,
      extraOptions,
    );
    const token = (result.data as { accessToken?: unknown } | undefined)?.accessToken;
    if (typeof token === 'string' && token) {
      api.dispatch(tokenRefreshed(token));
      return token;
    }
    api.dispatch(signedOut());
    return null;
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/** A 403 `password_change_required` sends the user to the password change (the router's guard). */
function noteRefusal<R extends { error?: FetchBaseQueryError | undefined }>(result: R, api: Pick<BaseQueryApi, 'dispatch'>): R {
  if (result.error?.status === 403 && errorCode(result.error) === PASSWORD_CHANGE_REQUIRED) {
    api.dispatch(passwordChangeRequired());
  }
  return result;
}

export const baseQueryWithReauth: Query = async (args, api, extraOptions) => {
  const sentWith = tokenOf(api);
  const result = await rawBaseQuery(args, api, extraOptions);
  if (result.error?.status !== 401 || AUTH_PATHS.includes(urlOf(args).split('?')[0] ?? '')) {
    return noteRefusal(result, api);
  }
  // A refresh already finished while this request was in flight: just retry.
  const current = tokenOf(api);
  const token =
    refreshing || !current || current === sentWith
      ? await refreshAccessToken(api, extraOptions)
      : current;
  return noteRefusal(token ? await rawBaseQuery(args, api, extraOptions) : result, api);
};

/**
 * A GET of a file (a CSV export) with the bearer token and the same re-auth
 * as `baseQueryWithReauth`: the response is handed back unread, so a large
 * download is read once, as a blob, rather than parsed.
 */
export async function fetchWithReauth(
  path: string,
  params: Record<string, string>,
  api: BaseQueryApi,
): Promise<Response> {
  const url = new URL(path.replace(/^\//, ''), BASE_URL);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  const send = (token: string | null) =>
    fetch(url, { credentials: 'include', headers: token ? { Authorization: `Bearer ${token}` } : {}, signal: api.signal });
  const sentWith = tokenOf(api);
  let response = await send(sentWith);
  if (response.status === 401) {
    const current = tokenOf(api);
    const token = refreshing || !current || current === sentWith ? await refreshAccessToken(api) : current;
    if (token) response = await send(token);
  }
  if (response.status === 403) {
    const body: unknown = await response.clone().json().catch(() => null);
    noteRefusal({ error: { status: 403, data: body } }, api);
  }
  return response;
}

/** Every cache tag type: what a mutation or a change hint can invalidate. */
const TAG_TYPES = [
  'Count',
  'Gateway',
  'Meter',
  'Activity',
  'Consumption',
  'Critical',
  'Shutdown',
  'Notification',
  'Alarm',
  'AlarmCounts',
  'ValveCommand',
  'Thresholds',
  /** The network's consumption and its top consumers (sums over every meter). */
  'Network',
  /** The users, as admins manage them. */
  'User',
  /** The API keys, as admins manage them. */
  'ApiKey',
  /** A gateway's MQTT credentials, one list per gateway (its id). */
  'GatewayCredential',
  /** The alarm rules, as admins manage them, and each rule's deliveries. */
  'AlarmRule',
  'RuleDelivery',
  /** The signed-in user (`/api/auth/me`). */
  'Me',
] as const;

export type TagType = (typeof TAG_TYPES)[number];

export const api = createApi({
  reducerPath: 'api',
  baseQuery: baseQueryWithReauth,
  tagTypes: TAG_TYPES,
  endpoints: (build) => ({
    /** The start-up refresh (spec §4); shares the mutex with the 401 path. */
    refreshToken: build.mutation<string | null, undefined>({
      queryFn: async (_arg, queryApi) => ({ data: await refreshAccessToken(queryApi) }),
    }),
  }),
});

/** Error helpers: a cancelled request is ignored (spec §7). */
export function isCancelled(error: unknown): boolean {
  if (error instanceof DOMException && error.name === 'AbortError') return true;
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { name?: unknown; status?: unknown; error?: unknown };
  if (e.name === 'AbortError') return true;
  return e.status === 'FETCH_ERROR' && typeof e.error === 'string' && e.error.includes('AbortError');
}

/** The HTTP status of an RTK Query error, when it has one. */
export function httpStatus(error: unknown): number | null {
  if (typeof error !== 'object' || error === null) return null;
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' ? status : null;
}

export const isForbidden = (error: unknown) => httpStatus(error) === 403;

/** The JSON body of an API error, when it is an object. */
function bodyOf(error: unknown): Record<string, unknown> | null {
  if (typeof error !== 'object' || error === null) return null;
  const data = (error as { data?: unknown }).data;
  return typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : null;
}

/** The per-field messages of an API error's JSON body (`fields`), by field name; empty without. */
export function errorFields(error: unknown): Record<string, string> {
  const fields = bodyOf(error)?.fields;
  if (typeof fields !== 'object' || fields === null) return {};
  return Object.fromEntries(
    Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

/** The stable `code` of an API error's JSON body (DESIGN §6), when it has one. */
export function errorCode(error: unknown): string | null {
  const code = bodyOf(error)?.code;
  return typeof code === 'string' ? code : null;
}

/** The sentence of an API error's JSON body (`message`), when it has one. */
export function errorMessage(error: unknown): string | null {
  const message = bodyOf(error)?.message;
  return typeof message === 'string' && message !== '' ? message : null;
}
