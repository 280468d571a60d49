// The header line of a device CSV, its columns in order: what an import
// expects and an export writes; the template is this line alone.
import type { DeviceCsvKind } from '../../../lib/types.ts';

export const CSV_HEADER: Record<DeviceCsvKind, string> = {
  gateways: 'serialNumber,imei,phoneNumber,bleAddress,macAddress,latitude,longitude',
  meters: 'serialNumber,bleAddress,latitude,longitude',
};

/** The template as a link's address, so that the browser saves it without asking the server. */
export const templateHref = (kind: DeviceCsvKind) =>
  `data:text/csv;charset=utf-8,${encodeURIComponent(`${CSV_HEADER[kind]}\r\n`)}`;

export const templateName = (kind: DeviceCsvKind) => `${kind}-template.csv`;
