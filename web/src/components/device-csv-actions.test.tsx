import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import { catchDownloads, csvFile } from '../testing/downloads.ts';
import { server } from '../testing/msw-server.ts';
import { nth } from '../testing/nth.ts';
import { renderWithProviders } from '../testing/render.tsx';
import { DeviceCsvActions } from './device-csv-actions.tsx';
import { startOfNextDay } from './start-date-picker.tsx';

function serveExport(kind: string) {
  const requests: URL[] = [];
  server.use(
    http.get(`/api/devices/export/${kind}`, ({ request }) => {
      requests.push(new URL(request.url));
      return csvFile(`${kind}.csv`, 'serialNumber,bleAddress,latitude,longitude\r\n');
    }),
  );
  return requests;
}

describe('DeviceCsvActions', () => {
  it('exports the devices the list\'s start date selects, under the server\'s name', async () => {
    const requests = serveExport('meters');
    const saved = catchDownloads();
    renderWithProviders(<DeviceCsvActions kind="meters" startDay="2026-01-15" onImported={vi.fn()} />);

    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));

    await waitFor(() => { expect(saved.map((file) => file.name)).toEqual(['meters.csv']); });
    expect(Object.fromEntries(nth(requests, 0).searchParams)).toEqual({ start: startOfNextDay('2026-01-15') });
  });

  it('exports every device without a start date', async () => {
    const requests = serveExport('gateways');
    const saved = catchDownloads();
    renderWithProviders(<DeviceCsvActions kind="gateways" startDay={null} onImported={vi.fn()} />);

    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));

    await waitFor(() => { expect(saved).toHaveLength(1); });
    expect(nth(requests, 0).search).toBe('');
  });
});
