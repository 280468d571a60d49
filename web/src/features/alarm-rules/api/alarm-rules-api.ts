// The alarm rules, for admins (`/api/admin/rules`), and each rule's latest
// deliveries. The list carries `AlarmRule` LIST and one tag per rule; a
// change re-reads the rule and the list, even when refused: another admin
// may have changed or deleted it first. A test message re-reads the rule's
// deliveries, where it shows.
import { api } from '../../../lib/api.ts';
import type { Delivery, Rule, RuleInput } from './rule-types.ts';

const LIST_TAG = { type: 'AlarmRule', id: 'LIST' } as const;
const ruleTag = (id: string) => ({ type: 'AlarmRule', id }) as const;
const deliveriesTag = (id: string) => ({ type: 'RuleDelivery', id }) as const;
const path = (id: string) => `api/admin/rules/${encodeURIComponent(id)}`;

export const alarmRulesApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Every rule, by name. */
    alarmRules: build.query<Rule[], undefined>({
      query: () => 'api/admin/rules',
      transformResponse: (body: { items: Rule[] }) => body.items,
      providesTags: (result) => [LIST_TAG, ...(result ?? []).map((rule) => ruleTag(rule.id))],
    }),
    createAlarmRule: build.mutation<Rule, RuleInput>({
      query: (body) => ({ url: 'api/admin/rules', method: 'POST', body }),
      invalidatesTags: (result) => (result ? [LIST_TAG] : []),
    }),
    updateAlarmRule: build.mutation<Rule, { id: string; input: RuleInput }>({
      query: ({ id, input }) => ({ url: path(id), method: 'PUT', body: input }),
      invalidatesTags: (_result, _error, { id }) => [ruleTag(id), LIST_TAG],
    }),
    deleteAlarmRule: build.mutation<null, string>({
      query: (id) => ({ url: path(id), method: 'DELETE' }),
      invalidatesTags: (_result, _error, id) => [ruleTag(id), LIST_TAG],
    }),
    /** Queues a test message at once; the id of its delivery. */
    testAlarmRule: build.mutation<string, string>({
      query: (id) => ({ url: `${path(id)}/test`, method: 'POST' }),
      transformResponse: (body: { deliveryId: string }) => body.deliveryId,
      invalidatesTags: (_result, _error, id) => [deliveriesTag(id)],
    }),
    /** The rule's latest deliveries (at most 50), newest first. */
    ruleDeliveries: build.query<Delivery[], string>({
      query: (id) => `${path(id)}/deliveries`,
      transformResponse: (body: { items: Delivery[] }) => body.items,
      providesTags: (_result, _error, id) => [deliveriesTag(id)],
    }),
  }),
});

export const {
  useAlarmRulesQuery,
  useCreateAlarmRuleMutation,
  useUpdateAlarmRuleMutation,
  useDeleteAlarmRuleMutation,
  useTestAlarmRuleMutation,
  useRuleDeliveriesQuery,
} = alarmRulesApi;
