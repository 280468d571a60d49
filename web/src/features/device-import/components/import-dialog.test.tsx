import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import { DEVICE_IMPORT_MAX_BYTES } from '../../../lib/constants.ts';
import { nth } from '../../../testing/nth.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { csvOf, importReport, jsonReport, serveImport } from '../testing/import-fixtures.ts';
import { ImportButton } from './import-button.tsx';

const HEADER = 'serialNumber,imei,phoneNumber,bleAddress,macAddress,latitude,longitude';
const CSV = `${HEADER}\nSG01000003,350010000000003,0701000003,5A:01:00:00:03:01,5C:01:00:00:03:01,45.76,4.8177\n`;

async function chooseFile(file = csvOf(CSV), onImported = vi.fn()) {
  const user = userEvent.setup();
  renderWithProviders(<ImportButton kind="gateways" onImported={onImported} />);
  await user.click(screen.getByRole('button', { name: 'Import CSV' }));
  const dialog = await screen.findByRole('dialog', { name: 'Import gateways from a CSV file' });
  await user.upload(within(dialog).getByLabelText('Choose a CSV file'), file);
  return { user, dialog, onImported };
}

describe('ImportDialog', () => {
  it('shows the expected header and a template holding just that line', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ImportButton kind="meters" onImported={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: 'Import CSV' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import water meters from a CSV file' });

    expect(within(dialog).getByText('serialNumber,bleAddress,latitude,longitude')).toBeInTheDocument();
    const template = within(dialog).getByRole('link', { name: 'Download a template' });
    expect(template).toHaveAttribute('download', 'meters-template.csv');
    expect(decodeURIComponent(template.getAttribute('href') ?? '')).toBe('data:text/csv;charset=utf-8,serialNumber,bleAddress,latitude,longitude\r\n');
    expect(within(dialog).getByLabelText('Choose a CSV file')).toHaveAttribute('accept', '.csv,text/csv');
  });

  it('checks the file at once and lists the problems of its rows', async () => {
    const sent = serveImport('gateways', () =>
      jsonReport(
        importReport({
          rows: 6,
          valid: 4,
          unchanged: 1,
          errors: [
            { row: 2, field: 'imei', message: 'IMEI must be exactly 15 digits' },
            { row: 5, field: '', message: 'Also in row 3 of this file' },
          ],
        }),
      ),
    );
    const { dialog } = await chooseFile();

    const problems = await within(dialog).findByRole('table', { name: 'Problems found' });
    const rows = within(problems).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([
      ['2', 'imei', 'IMEI must be exactly 15 digits'],
      ['5', '(whole row)', 'Also in row 3 of this file'],
    ]);
    expect(within(dialog).getByText('Rows').nextSibling).toHaveTextContent('6');
    expect(within(dialog).getByText('Valid').nextSibling).toHaveTextContent('4');
    expect(within(dialog).getByText('Already registered').nextSibling).toHaveTextContent('1');
    expect(within(dialog).getByText('gateways.csv')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Import 3 devices' })).toBeEnabled();

    const request = nth(sent, 0);
    expect(request.url.pathname).toBe('/api/devices/import/gateways');
    expect(request.url.searchParams.has('apply')).toBe(false);
    expect(request.contentType).toBe('text/csv');
    expect(request.body).toBe(CSV);
  });

  it('says so when no row has a problem, and offers nothing when every row is registered already', async () => {
    serveImport('gateways', () => jsonReport(importReport({ rows: 2, valid: 2, unchanged: 2 })));
    const { dialog } = await chooseFile();

    expect(await within(dialog).findByText('No problems found: every row is valid.')).toBeInTheDocument();
    expect(within(dialog).queryByRole('table')).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Import 0 devices' })).toBeDisabled();
  });

  it('imports with apply=true, says how many devices were registered and shows them in the list', async () => {
    const sent = serveImport('gateways', (apply) =>
      jsonReport(apply ? importReport({ applied: true, registered: 3 }) : importReport()),
    );
    const { user, dialog, onImported } = await chooseFile();

    await user.click(await within(dialog).findByRole('button', { name: 'Import 2 devices' }));

    expect(await within(dialog).findByText('3 devices registered')).toBeInTheDocument();
    expect(nth(sent, 1).url.searchParams.get('apply')).toBe('true');
    expect(nth(sent, 1).body).toBe(CSV);
    expect(onImported).toHaveBeenCalledOnce();
    expect(within(dialog).queryByRole('button', { name: /^Import \d/ })).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeInTheDocument();
  });

  it('shows the server\'s reason when it refuses the whole file', async () => {
    serveImport('gateways', () =>
      HttpResponse.json(
        { code: 'invalid_csv', message: `The header must be exactly: ${HEADER}` },
        { status: 400 },
      ),
    );
    const { dialog } = await chooseFile(csvOf('serial,imei\n'));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(`This file cannot be imported: The header must be exactly: ${HEADER}`);
    expect(within(dialog).queryByRole('button', { name: /^Import \d/ })).toBeNull();
  });

  it('refuses a file larger than the server takes without sending it, as the server would', async () => {
    const sent = serveImport('gateways', () => HttpResponse.json({ code: 'payload_too_large' }, { status: 413 }));
    const big = csvOf(CSV);
    Object.defineProperty(big, 'size', { value: DEVICE_IMPORT_MAX_BYTES + 1 });
    const { dialog } = await chooseFile(big);

    expect(within(dialog).getByRole('alert')).toHaveTextContent('The file is larger than 10 MiB; split it');
    expect(sent).toEqual([]);

    await userEvent.upload(within(dialog).getByLabelText('Choose a CSV file'), csvOf(CSV, 'still-too-big.csv'));
    await waitFor(() => { expect(within(dialog).getByRole('alert')).toHaveTextContent('The file is larger than 10 MiB; split it'); });
    expect(sent).toHaveLength(1);
  });
});
