import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { server } from '../../../testing/msw-server.ts';
import { METER_ID } from '../../../testing/records.ts';
import MeterRegistrationPage from './meter-registration-page.tsx';
import {
  created,
  creation,
  describedText,
  failed,
  fieldcheck,
  fill,
  FORM_TEST_TIMEOUT_MS,
  register,
  renderPage,
  type FieldCheck,
} from './registration-test-kit.ts';

const URL = '/api/proxy/wmeters/';

const VALID = {
  'Serial Number': 'zx98yw76vu',
  'BLE Address': 'aa:bb:cc:dd:ee:03',
  'GPS Coordinates': '-0.1,51.5',
};

const INVALID: [string, string, string][] = [
  ['Serial Number', 'ZX98YW76V!', 'Serial Number must be exactly 10 alphanumeric characters'],
  ['BLE Address', 'AABBCCDDEE03', 'BLE Address must be in format XX:XX:XX:XX:XX:XX'],
  ['GPS Coordinates', '1,2,3', 'Invalid GPS format. Use longitude,latitude'],
];

const open = () => renderPage(<MeterRegistrationPage />, '/water-meter-registration');

describe('MeterRegistrationPage', { timeout: FORM_TEST_TIMEOUT_MS }, () => {
  it('has the three fields and shows each format message on blur', async () => {
    const user = open();
    expect(screen.getByRole('heading', { level: 1, name: 'Register Water Meter' })).toBeInTheDocument();
    expect(screen.queryByLabelText('IMEI')).not.toBeInTheDocument();
    expect(describedText('GPS Coordinates')).toBe('Format: longitude,latitude');
    for (const [label, value, message] of INVALID) {
      await fill(user, { [label]: value });
      await user.tab();
      expect(describedText(label)).toBe(message);
      expect(screen.getByLabelText(label)).toHaveAttribute('aria-invalid', 'true');
    }
  });

  it('shows each message on submit and sends nothing', async () => {
    const bodies: unknown[] = [];
    const checks: FieldCheck[] = [];
    server.use(fieldcheck(checks), creation(URL, bodies, () => created(METER_ID)));
    const user = open();
    await fill(user, { 'GPS Coordinates': 'north' });
    await user.click(register());
    expect(describedText('Serial Number')).toBe('Serial Number must be exactly 10 alphanumeric characters');
    expect(describedText('BLE Address')).toBe('BLE Address must be in format XX:XX:XX:XX:XX:XX');
    expect(describedText('GPS Coordinates')).toBe('Invalid GPS format. Use longitude,latitude');
    expect(checks).toEqual([]);
    expect(bodies).toEqual([]);
  });

  it('says which value is in use, or that the check failed', async () => {
    const checks: FieldCheck[] = [];
    server.use(fieldcheck(checks, (c) => (c.fieldName === 'serialNumber' ? true : 500)));
    const user = open();
    await fill(user, { 'Serial Number': VALID['Serial Number'], 'BLE Address': VALID['BLE Address'] });
    await user.tab();
    await waitFor(() => {
      expect(describedText('BLE Address')).toBe('Error checking BLE Address');
    });
    expect(describedText('Serial Number')).toBe('Serial Number already in use');
    expect(checks).toEqual([
      { value: 'ZX98YW76VU', fieldName: 'serialNumber' },
      { value: 'AA:BB:CC:DD:EE:03', fieldName: 'bleAddress' },
    ]);

    server.use(fieldcheck([], (c) => (c.fieldName === 'serialNumber' ? 500 : true)));
    await user.click(register());
    await waitFor(() => {
      expect(describedText('Serial Number')).toBe('Error checking Serial Number');
    });
    expect(describedText('BLE Address')).toBe('BLE Address already in use');
  });

  it('posts the canonical values and opens the new meter', async () => {
    const bodies: unknown[] = [];
    server.use(fieldcheck([]), creation(URL, bodies, () => created({ $oid: METER_ID })));
    const user = open();
    await fill(user, VALID);
    await user.click(register());

    await waitFor(() => {
      expect(screen.getByTestId('location')).toHaveTextContent(`/water-meters/${METER_ID}`);
    });
    expect(bodies).toEqual([{ serialNumber: 'ZX98YW76VU', bleAddress: 'AA:BB:CC:DD:EE:03', gpsCoordinates: [-0.1, 51.5] }]);
  });

  it("says 'Error registering water meter: Action denied' on 403", async () => {
    server.use(fieldcheck([]), creation(URL, [], () => failed(403)));
    const user = open();
    await fill(user, VALID);
    await user.click(register());
    expect(await screen.findByRole('alert')).toHaveTextContent('Error registering water meter: Action denied');
  });

  it("says 'Error registering water meter' on any other failure", async () => {
    server.use(fieldcheck([]), creation(URL, [], () => failed(500)));
    const user = open();
    await fill(user, VALID);
    await user.click(register());
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Error registering water meter$/);
    expect(screen.getByRole('button', { name: 'Register' })).toBeEnabled();
  });
});
