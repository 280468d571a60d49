// The nine navigation entries (spec §2, Shell), in the spec's order.
export const NAV_ITEMS = [
  { to: '/', key: 'nav.overview' },
  { to: '/gateways', key: 'nav.gateways' },
  { to: '/lost-gateways', key: 'nav.lostGateways' },
  { to: '/water-meters', key: 'nav.waterMeters' },
  { to: '/lost-water-meters', key: 'nav.lostWaterMeters' },
  { to: '/down-water-meters', key: 'nav.downWaterMeters' },
  { to: '/criticals', key: 'nav.criticals' },
  { to: '/water-meter-registration', key: 'nav.waterMeterRegistration' },
  { to: '/gateway-registration', key: 'nav.gatewayRegistration' },
] as const;
