// A gateway's MQTT credentials, for operators and admins
// (`/api/devices/gateways/{gatewayId}/credentials`): each gateway signs in to
// the broker with its own secret or client certificate. Issuing a kind
// revokes the gateway's earlier active one of that kind (a rotation). The
// list carries one `GatewayCredential` tag per gateway; an issue re-reads it,
// a revocation too, even when refused: another user may have revoked it first.
import { api } from '../../../lib/api.ts';

export type CredentialKind = 'secret' | 'certificate';

export const CREDENTIAL_KINDS: readonly CredentialKind[] = ['secret', 'certificate'];

export interface Credential {
  /** 24 hex digits. */
  id: string;
  kind: CredentialKind;
  /** The gateway's serial number, e.g. `A1B2C3D4E5`. */
  username: string;
  /** `sha256:…`, for a certificate only. */
  fingerprint: string | null;
  /** RFC 3339, as are the other times. */
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

export interface IssuedSecret {
  credential: Credential;
  /** Shown once, never again: the server keeps only its hash. */
  secret: string;
}

export interface IssuedCertificate {
  credential: Credential;
  /** PEM, as are the private key and the CA certificate. */
  certificate: string;
  /** Shown once, never again. */
  privateKey: string;
  caCertificate: string;
}

export type Issued = IssuedSecret | IssuedCertificate;

export const isIssuedSecret = (issued: Issued): issued is IssuedSecret => 'secret' in issued;

const listTag = (gatewayId: string) => ({ type: 'GatewayCredential', id: gatewayId }) as const;
const credentialsUrl = (gatewayId: string) => `api/devices/gateways/${encodeURIComponent(gatewayId)}/credentials`;

export const gatewayCredentialsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The gateway's credentials, newest first. */
    gatewayCredentials: build.query<Credential[], string>({
      query: (gatewayId) => credentialsUrl(gatewayId),
      transformResponse: (body: { credentials: Credential[] }) => body.credentials,
      providesTags: (_result, _error, gatewayId) => [listTag(gatewayId)],
    }),
    issueGatewayCredential: build.mutation<Issued, { gatewayId: string; kind: CredentialKind }>({
      query: ({ gatewayId, kind }) => ({ url: credentialsUrl(gatewayId), method: 'POST', body: { kind } }),
      invalidatesTags: (result, _error, { gatewayId }) => (result ? [listTag(gatewayId)] : []),
    }),
    revokeGatewayCredential: build.mutation<undefined, { gatewayId: string; credentialId: string }>({
      query: ({ gatewayId, credentialId }) => ({
        url: `${credentialsUrl(gatewayId)}/${encodeURIComponent(credentialId)}/revoke`,
        method: 'POST',
      }),
      invalidatesTags: (_result, _error, { gatewayId }) => [listTag(gatewayId)],
    }),
  }),
});

export const { useGatewayCredentialsQuery, useIssueGatewayCredentialMutation, useRevokeGatewayCredentialMutation } =
  gatewayCredentialsApi;
