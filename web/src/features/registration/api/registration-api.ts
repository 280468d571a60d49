// `POST /api/proxy/gateways/` and `POST /api/proxy/wmeters/` (spec §7): the
// created record's id, plain or `$oid` (spec §2, Registration).
import { api } from '../../../lib/api.ts';
import { idOf } from '../../../lib/format.ts';
import type { RecordId } from '../../../lib/types.ts';
import type { Gps } from '../../../lib/validation.ts';

/** The canonical values of a registration form, by request field. */
export type RegistrationBody = Readonly<Record<string, string | Gps>>;

const createdId = (body: { _id: RecordId }) => idOf(body._id);

const registrationApi = api.injectEndpoints({
  endpoints: (build) => ({
    registerGateway: build.mutation<string, RegistrationBody>({
      query: (body) => ({ url: 'api/proxy/gateways/', method: 'POST', body }),
      transformResponse: createdId,
      invalidatesTags: [{ type: 'Gateway', id: 'LIST' }, 'Count'],
    }),
    registerMeter: build.mutation<string, RegistrationBody>({
      query: (body) => ({ url: 'api/proxy/wmeters/', method: 'POST', body }),
      transformResponse: createdId,
      invalidatesTags: [{ type: 'Meter', id: 'LIST' }, 'Count'],
    }),
  }),
});

export const { useRegisterGatewayMutation, useRegisterMeterMutation } = registrationApi;
