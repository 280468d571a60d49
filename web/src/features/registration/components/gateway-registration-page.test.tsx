import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { server } from '../../../testing/msw-server.ts';
import { GATEWAY_ID } from '../../../testing/records.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import GatewayRegistrationPage from './gateway-registration-page.tsx';
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

const URL = '/api/proxy/gateways/';

const VALID = {
  'Serial Number': 'ab12cd34ef',
  IMEI: '490154203237518',
  'Phone Number': '0612345678',
  'BLE Address': 'aa:bb:cc:dd:ee:01',
  'MAC Address': 'aa:bb:cc:dd:ee:02',
  'GPS Coordinates': ' 2.2944812 , 48.8583701 ',
};

const INVALID: [string, string, string][] = [
  ['Serial Number', 'AB12', 'Must be exactly 10 alphanumeric characters'],
  ['IMEI', '49015420323751x', 'IMEI must be exactly 15 digits'],
  ['Phone Number', '061234567', 'Phone Number must be exactly 10 digits'],
  ['BLE Address', 'AA:BB:CC:DD:EE', 'Must be in format XX:XX:XX:XX:XX:XX'],
  ['MAC Address', 'AA-BB-CC-DD-EE-02', 'Must be in format XX:XX:XX:XX:XX:XX'],
  ['GPS Coordinates', '2.29;48.85', 'Invalid GPS format. Use longitude,latitude'],
];

const CHECKED: [string, string][] = [
  ['Serial Number', 'serialNumber'],
  ['IMEI', 'imei'],
  ['Phone Number', 'phoneNumber'],
  ['BLE Address', 'bleAddress'],
  ['MAC Address', 'macAddress'],
];

const open = () => renderPage(<GatewayRegistrationPage />, '/gateway-registration');

describe('GatewayRegistrationPage', { timeout: FORM_TEST_TIMEOUT_MS }, () => {
  it('shows each format message on blur, under its field, with the GPS hint', async () => {
    const checks: FieldCheck[] = [];
    server.use(fieldcheck(checks));
    const user = open();
    expect(screen.getByRole('heading', { level: 1, name: 'Register Gateway' })).toBeInTheDocument();
    expect(describedText('GPS Coordinates')).toBe('Format: longitude,latitude');

    for (const [label, value, message] of INVALID) {
      await fill(user, { [label]: value });
      await user.tab();
      expect(await screen.findByText(message, { selector: `#${CSS.escape(screen.getByLabelText(label).id)}-helper-text` })).toBeInTheDocument();
      expect(screen.getByLabelText(label)).toHaveAttribute('aria-invalid', 'true');
      expect(describedText(label)).toBe(message);
    }
    expect(checks).toEqual([]);
  });

  it('leaves an empty GPS field alone on blur', async () => {
    const user = open();
    await user.click(screen.getByLabelText('GPS Coordinates'));
    await user.tab();
    expect(screen.getByLabelText('GPS Coordinates')).toHaveAttribute('aria-invalid', 'false');
  });

  it('shows every message on submit and sends nothing', async () => {
    const checks: FieldCheck[] = [];
    const bodies: unknown[] = [];
    server.use(fieldcheck(checks), creation(URL, bodies, () => created(GATEWAY_ID)));
    const user = open();
    await fill(user, Object.fromEntries(INVALID.map(([label, value]) => [label, value])));
    await user.click(register());

    for (const [label, , message] of INVALID) expect(describedText(label)).toBe(message);
    expect(checks).toEqual([]);
    expect(bodies).toEqual([]);
    expect(screen.getByTestId('location')).toHaveTextContent('/gateway-registration');
  });

  it('checks uniqueness on blur with the canonical value and says which field is in use', async () => {
    const checks: FieldCheck[] = [];
    server.use(fieldcheck(checks, () => true));
    const user = open();
    for (const [label] of CHECKED) {
      await fill(user, { [label]: VALID[label as keyof typeof VALID] });
      await user.tab();
      await waitFor(() => {
        expect(describedText(label)).toBe(`${label} already in use`);
      });
    }
    expect(checks).toEqual([
      { value: 'AB12CD34EF', fieldName: 'serialNumber' },
      { value: '490154203237518', fieldName: 'imei' },
      { value: '0612345678', fieldName: 'phoneNumber' },
      { value: 'AA:BB:CC:DD:EE:01', fieldName: 'bleAddress' },
      { value: 'AA:BB:CC:DD:EE:02', fieldName: 'macAddress' },
    ]);
  });

  it("says 'Error checking {Field}' when the check fails, and clears an error on edit", async () => {
    server.use(fieldcheck([], () => 500));
    const user = open();
    for (const [label] of CHECKED) {
      await fill(user, { [label]: VALID[label as keyof typeof VALID] });
      await user.tab();
      await waitFor(() => {
        expect(describedText(label)).toBe(`Error checking ${label}`);
      });
    }
    await user.type(screen.getByLabelText('IMEI'), '9');
    expect(describedText('IMEI')).toBe('');
    expect(screen.getByLabelText('IMEI')).toHaveAttribute('aria-invalid', 'false');
    expect(describedText('Serial Number')).toBe('Error checking Serial Number');
  });

  it('re-checks uniqueness on submit and sends nothing when a value is taken', async () => {
    const bodies: unknown[] = [];
    const checks: FieldCheck[] = [];
    server.use(fieldcheck(checks, (c) => c.fieldName === 'macAddress'), creation(URL, bodies, () => created(GATEWAY_ID)));
    const user = open();
    await fill(user, VALID);
    await waitFor(() => {
      expect(describedText('MAC Address')).toBe('MAC Address already in use');
    });
    await user.type(screen.getByLabelText('MAC Address'), '{Backspace}2');
    expect(describedText('MAC Address')).toBe('');
    checks.length = 0;
    await user.click(register());

    await waitFor(() => {
      expect(describedText('MAC Address')).toBe('MAC Address already in use');
    });
    expect(checks.map((c) => c.fieldName).sort()).toEqual(['bleAddress', 'imei', 'macAddress', 'phoneNumber', 'serialNumber']);
    expect(bodies).toEqual([]);
  });

  it('posts the canonical values with GPS as [lon, lat] and opens the new gateway', async () => {
    const bodies: unknown[] = [];
    server.use(fieldcheck([]), creation(URL, bodies, () => created(GATEWAY_ID)));
    const user = open();
    await fill(user, VALID);
    await user.click(register());

    await waitFor(() => {
      expect(screen.getByTestId('location')).toHaveTextContent(`/gateways/${GATEWAY_ID}`);
    });
    expect(bodies).toEqual([
      {
        serialNumber: 'AB12CD34EF',
        imei: '490154203237518',
        phoneNumber: '0612345678',
        bleAddress: 'AA:BB:CC:DD:EE:01',
        macAddress: 'AA:BB:CC:DD:EE:02',
        gpsCoordinates: [2.294481, 48.85837],
      },
    ]);
  });

  it('leaves out an empty GPS, reads an $oid id, and cannot submit twice', async () => {
    const bodies: unknown[] = [];
    server.use(fieldcheck([]), creation(URL, bodies, () => created({ $oid: GATEWAY_ID }), 50));
    const user = open();
    await fill(user, { ...VALID, 'GPS Coordinates': '' });
    await user.dblClick(register());
    await user.type(screen.getByLabelText('IMEI'), '{Enter}');

    await waitFor(() => {
      expect(screen.getByTestId('location')).toHaveTextContent(`/gateways/${GATEWAY_ID}`);
    });
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).not.toHaveProperty('gpsCoordinates');
  });

  it('stays refused once it registered, while the page is still leaving', async () => {
    const bodies: unknown[] = [];
    server.use(fieldcheck([]), creation(URL, bodies, () => created({ $oid: GATEWAY_ID })));
    // The page stays mounted at every path, as it is until the router's transition commits.
    renderWithProviders(<GatewayRegistrationPage />, { route: '/gateway-registration' });
    const user = userEvent.setup();
    await fill(user, VALID);
    await user.click(register());
    await waitFor(() => {
      expect(screen.getByTestId('location')).toHaveTextContent(`/gateways/${GATEWAY_ID}`);
    });
    expect(register()).toBeDisabled();
    await user.type(screen.getByLabelText('IMEI'), '{Enter}');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(bodies).toHaveLength(1);
  });

  it("says 'Error registering gateway: Action denied' on 403", async () => {
    server.use(fieldcheck([]), creation(URL, [], () => failed(403)));
    const user = open();
    await fill(user, VALID);
    await user.click(register());
    expect(await screen.findByRole('alert')).toHaveTextContent('Error registering gateway: Action denied');
    expect(screen.getByTestId('location')).toHaveTextContent('/gateway-registration');
  });

  it("says 'Error registering gateway' otherwise, with the server's field messages", async () => {
    server.use(fieldcheck([]), creation(URL, [], () => failed(400, { imei: 'IMEI must be exactly 15 digits' })));
    const user = open();
    await fill(user, VALID);
    await user.click(register());
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Error registering gateway$/);
    expect(describedText('IMEI')).toBe('IMEI must be exactly 15 digits');
  });

  it('shows a conflict (409) under the field that is in use', async () => {
    server.use(fieldcheck([]), creation(URL, [], () => failed(409, { serialNumber: 'already in use' })));
    const user = open();
    await fill(user, VALID);
    await user.click(register());
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Error registering gateway$/);
    expect(describedText('Serial Number')).toBe('Serial Number already in use');
  });
});
