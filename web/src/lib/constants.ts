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

// The map (docs/map.md). The server clusters and caps a view at MAP_ITEMS_MAX
// clusters and markers; the dashboard asks for the visible bounding box.
export const MAP_ITEMS_MAX = 2_000;
/** Wait this long after the last move or zoom before asking for the view. */
export const MAP_MOVE_DEBOUNCE_MS = 250;
/** A view stays cached this long (seconds) once nothing shows it. */
export const MAP_VIEW_KEEP_S = 30;
/** The bounding box asked for stays within these (no antimeridian crossing). */
export const MAP_LON_LIMIT = 180;
export const MAP_LAT_LIMIT = 85;
export const MAP_MIN_ZOOM = 2;
export const MAP_MAX_ZOOM = 19;
/** Fitting the map never zooms closer than this (one device, or a few close together). */
export const MAP_FIT_MAX_ZOOM = 16;
export const MAP_FIT_PADDING_PX = 32;
/** The world view when no device has a position yet. */
export const MAP_WORLD_CENTER = { lat: 20, lon: 0 } as const;
export const MAP_WORLD_ZOOM = 2;
/** Marker sizes in pixels: a device, and clusters growing with the log of their count. */
export const MAP_MARKER_RADIUS_PX = 8;
export const MAP_CLUSTER_RADIUS_PX = { min: 14, max: 30 } as const;
export const MAP_MIN_HEIGHT_PX = 360;

// Accounts (docs/administration.md): the server's rules, checked here first.
export const MIN_PASSWORD_CHARS = 8;
export const MAX_USERNAME_CHARS = 64;
export const MAX_PASSWORD_CHARS = 256;
/** The users list asks the server this long after the last key in its search box. */
export const USER_SEARCH_DEBOUNCE_MS = 300;

// The audit trail (docs/administration.md, Audit screen)
/** Its filters' text and times apply this long after the last key. */
export const AUDIT_FILTER_DEBOUNCE_MS = 300;
export const AUDIT_PAGE_SIZES = [25, 50, 100] as const;
/** The server's own default page size. */
export const AUDIT_DEFAULT_PAGE_SIZE = 50;

// API keys (admins; /admin/api-keys): the server's rules, checked here first.
export const API_KEY_NAME_MAX_CHARS = 100;
/** A key expires at most this many days ahead. */
export const API_KEY_MAX_DAYS = 730;
/** The expiries offered, in days from now, beside a custom day; the second is chosen first. */
export const API_KEY_EXPIRY_DAYS = { '30d': 30, '90d': 90, '1y': 365 } as const;
export const API_KEY_DEFAULT_EXPIRY = '90d';

// Gateway MQTT credentials (operators and admins; the gateway page)
/** The name the broker's CA certificate is saved under, beside `{username}.crt` and `{username}.key`. */
export const GATEWAY_CA_FILENAME = 'wmeter-ca.crt';

// Preferences (language and theme, kept per user on the server)
/** A save of the preferences gives up after this long: the language switch then reloads anyway. */
export const PREFERENCES_SAVE_TIMEOUT_MS = 3_000;

// Alarm rules (admins; /admin/rules): the server's rules, checked here first.
export const RULE_NAME_MAX_CHARS = 100;
/** An email rule's recipients. */
export const RULE_RECIPIENTS = { min: 1, max: 20 } as const;
export const WEBHOOK_SECRET_CHARS = { min: 16, max: 256 } as const;
/** The length of a secret made by Generate, in URL-safe characters. */
export const WEBHOOK_SECRET_GENERATED_CHARS = 32;
/** Alarms matched within this many seconds after the first are sent as one message. */
export const GROUP_WINDOW_SECS = { min: 0, max: 3600 } as const;
export const GROUP_WINDOW_DEFAULT_SECS = 60;

// Device CSV import (/api/devices/import/{kind}): the server's limit, checked here first.
export const DEVICE_IMPORT_MAX_MIB = 10;
export const DEVICE_IMPORT_MAX_BYTES = DEVICE_IMPORT_MAX_MIB * 1024 * 1024;
/** The import dialog lists at most this many of a file's problems. */
export const DEVICE_IMPORT_PROBLEMS_SHOWN = 100;
