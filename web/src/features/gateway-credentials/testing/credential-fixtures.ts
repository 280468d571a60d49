// Credentials shaped like `/api/devices/gateways/{id}/credentials` answers,
// and a fake server holding them, for the MQTT credentials tests.
import { http, HttpResponse } from 'msw';

import { server } from '../../../testing/msw-server.ts';
import { GATEWAY_ID } from '../../../testing/records.ts';
import type { Credential, CredentialKind } from '../api/gateway-credentials-api.ts';

export const USERNAME = 'SG01000003';

export function credential(overrides: Partial<Credential> = {}): Credential {
  return {
    id: '6b031854dbdeac91e41b6501',
    kind: 'secret',
    username: USERNAME,
    fingerprint: null,
    createdAt: '2026-11-02T08:00:00Z',
    expiresAt: null,
    revokedAt: null,
    ...overrides,
  };
}

/** What every issued secret or certificate is answered with. */
export const SECRET = 'mqs_Q2hhbmdlLW1lLW5vdy1wbGVhc2U';
export const CERTIFICATE = '-----BEGIN CERTIFICATE-----\nMIIBgateway\n-----END CERTIFICATE-----\n';
export const PRIVATE_KEY = '-----BEGIN PRIVATE KEY-----\nMIIEkey\n-----END PRIVATE KEY-----\n';
export const CA_CERTIFICATE = '-----BEGIN CERTIFICATE-----\nMIIBca\n-----END CERTIFICATE-----\n';
export const FINGERPRINT = 'sha256:ab12cd34ef56';

export interface Served {
  /** How many times the list was read. */
  reads: number;
  /** Every change's method, path and body. */
  changes: { method: string; path: string; body: unknown }[];
}

const BASE = `/api/devices/gateways/${GATEWAY_ID}/credentials`;

/**
 * The gateway's list (newest first) and its changes, which alter
 * `credentials` as the server does: an issue revokes the active one of its
 * kind. `refuse` answers a POST instead, when given.
 */
export function serveCredentials(credentials: Credential[], refuse?: () => Response): Served {
  const served: Served = { reads: 0, changes: [] };
  const record = async (request: Request) => {
    const body: unknown = request.headers.get('content-type')?.includes('json') ? await request.json() : null;
    served.changes.push({ method: request.method, path: new URL(request.url).pathname, body });
    return body;
  };
  server.use(
    http.get(BASE, () => {
      served.reads += 1;
      return HttpResponse.json({ credentials });
    }),
    http.post(BASE, async ({ request }) => {
      const { kind } = (await record(request)) as { kind: CredentialKind };
      if (refuse) return refuse();
      const now = new Date().toISOString();
      credentials.forEach((old, index) => {
        if (old.kind === kind && old.revokedAt === null) credentials[index] = { ...old, revokedAt: now };
      });
      const certificate = kind === 'certificate';
      const issued = credential({
        id: `6b031854dbdeac91e41b65${String(10 + served.changes.length)}`,
        kind,
        createdAt: now,
        fingerprint: certificate ? FINGERPRINT : null,
        expiresAt: certificate ? new Date(Date.now() + 365 * 86_400_000).toISOString() : null,
      });
      credentials.unshift(issued);
      const body = certificate
        ? { credential: issued, certificate: CERTIFICATE, privateKey: PRIVATE_KEY, caCertificate: CA_CERTIFICATE }
        : { credential: issued, secret: SECRET };
      return HttpResponse.json(body, { status: 201 });
    }),
    http.post(`${BASE}/:id/revoke`, async ({ request, params }) => {
      await record(request);
      if (refuse) return refuse();
      const index = credentials.findIndex((one) => one.id === params.id);
      const found = credentials[index];
      if (found?.revokedAt === null) credentials[index] = { ...found, revokedAt: new Date().toISOString() };
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return served;
}
