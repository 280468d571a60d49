// `POST /api/proxy/gateways/` and `POST /api/proxy/wmeters/` (spec §7): the
// created record's id, plain or `$oid` (spec §2, Registration).
import { api } from '../../../lib/api.ts';
import { idOf } from '../../../lib/format.ts';
import type { RecordId } from '../../../lib/types.ts';
import type { Gps } from '../../../lib/validation.ts';

/** The canonical values of a registration form, by request field. */
export type RegistrationBody = Readonly<Record<string, string | Gps>>;

const createdId = (body: { _id: RecordId }) => idOf(body._id);

// A new device may belong to any list and count of its kind: all of them are stale.
const registrationApi = api.injectEndpoints({
  endpoints: (build) => ({
    registerGateway: build.mutation<string, RegistrationBody>({
      query: (body) => ({ url: 'api/proxy/gateways/', method: 'POST', body }),
      transformResponse: createdId,
      invalidatesTags: ['Gateway', 'Count'],
    }),
    registerMeter: build.mutation<string, RegistrationBody>({
      query: (body) => ({ url: 'api/proxy/wmeters/', method: 'POST', body }),
      transformResponse: createdId,
      invalidatesTags: ['Meter', 'Count'],
    }),
  }),
});

export const { useRegisterGatewayMutation, useRegisterMeterMutation } = registrationApi;
