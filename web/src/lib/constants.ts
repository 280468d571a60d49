// Business constants and limits from the spec (§9, with §2 and §7 where noted).
// Every screen reads them from here; none repeats a literal (STYLE.md item 10).

// Lists and the overview
export const PAGE_SIZE = 20;
export const OVERVIEW_ACTIVITY_MAX = 50;

// Timers, in milliseconds
export const OVERVIEW_REFRESH_MS = 30_000;
export const UPTIME_POLL_MS = 5_000;
export const NOTICE_MS = 3_000;
/** Event-stream reconnect delay unless the server sends `retry` (§7). */
export const SSE_RECONNECT_MS = 1_000;

// Truncation of activity rows
export const TOPIC_MAX = 20;
export const ACTION_MAX = 25;

// RSSI colour: green above GOOD, orange above FAIR, otherwise red.
export const RSSI_GOOD_ABOVE = -60;
export const RSSI_FAIR_ABOVE = -80;

// Devices
export const GPS_DECIMALS = 6;
export const DEVICE_ID_LENGTH = 24;
export const SERIAL_LENGTH = 10;
export const IMEI_LENGTH = 15;
export const PHONE_LENGTH = 10;
export const GATEWAY_PREFIX = 'GTW-';
export const METER_PREFIX = 'W-';

// Search box: radius in metres; 0 means OFF.
export const RADIUS_OFF = 0;
export const RADIUS_STEP = 5;
export const RADIUS_MAX = 200;
export const RADIUS_DEFAULT = 150;
export const RADIUS_OPTIONS: readonly number[] = Object.freeze([
  RADIUS_OFF,
  ...Array.from({ length: RADIUS_MAX / RADIUS_STEP }, (_, i) => (i + 1) * RADIUS_STEP),
]);
export const SEARCH_BOX_WIDTH_PX = 600;

// Leak-detector thresholds a meter may have of its own (docs/analytics.md,
// Thresholds per meter): the server keeps them in these ranges, inclusive.
export const CONTINUOUS_FLOW_HOURS = { min: 2, max: 168 } as const;
/** Night flow and burst, in litres an hour, kept to the millilitre. */
export const LITRES_PER_HOUR = { min: 0.001, max: 1_000_000 } as const;
export const STUCK_METER_DAYS = { min: 1, max: 365 } as const;

// Notification bell: above the cap the badge reads `${BADGE_CAP}+`.
export const BADGE_CAP = 99;

// Date pickers (ISO dates, inclusive)
export const DATE_PICKER_MIN = '1900-01-01';
export const DATE_PICKER_MAX = '2099-12-31';

// Layout
export const LOGIN_CARD_WIDTH_PX = 300;
export const BREAKPOINT_VERY_SMALL_PX = 400;
export const BREAKPOINT_SHORT_HEIGHT_PX = 550;
export const BREAKPOINT_SMALL_PX = 1000;
export const BREAKPOINT_SIDE_NAV_MAX_PX = 1200;
export const BREAKPOINT_CRITICAL_LIST_MOBILE_PX = 800;
