import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';

import { server } from '../../../testing/msw-server.ts';
import { gateway } from '../../../testing/records.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { SearchBox } from './search-box.tsx';
import SearchResultsPage from './search-results-page.tsx';

interface Call {
  q: string | null;
  radius: string | null;
}

function searchApi(calls: Call[], reply: () => Response = () => HttpResponse.json([gateway()])) {
  return http.get('/api/proxy/search', ({ request }) => {
    const params = new URL(request.url).searchParams;
    calls.push({ q: params.get('q'), radius: params.get('radius') });
    return reply();
  });
}

function renderBox() {
  renderWithProviders(
    <>
      <SearchBox />
      <Routes>
        <Route path="/search" element={<SearchResultsPage />} />
        <Route path="*" element={null} />
      </Routes>
    </>,
  );
  return userEvent.setup();
}

const term = () => screen.getByRole('searchbox', { name: 'Search devices' });
const radius = () => screen.getByRole('combobox', { name: /Radius/ });

async function chooseRadius(user: ReturnType<typeof userEvent.setup>, option: string) {
  await user.click(radius());
  await user.click(within(screen.getByRole('listbox')).getByRole('option', { name: option }));
}

describe('SearchBox', { timeout: 20_000 }, () => {
  it('opens the results as not found for a blank term, without a request', async () => {
    const calls: Call[] = [];
    server.use(searchApi(calls));
    const user = renderBox();
    await user.type(term(), '   {Enter}');

    expect(await screen.findByText('No matching devices found')).toBeInTheDocument();
    expect(screen.getByText('Please check your search term or adjust the radius.')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/search');
    expect(calls).toEqual([]);
  });

  it('searches with the default radius 150 from the button, and shows the results', async () => {
    const calls: Call[] = [];
    server.use(searchApi(calls));
    const user = renderBox();
    expect(radius()).toHaveTextContent('150m');
    await user.type(term(), ' GTW-SG01 ');
    await user.click(screen.getByRole('button', { name: 'Search' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Search Results' })).toBeInTheDocument();
    expect(screen.getByText('GTW-SG01000003')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/search');
    expect(calls).toEqual([{ q: 'GTW-SG01', radius: '150' }]);
  });

  it('sends the chosen radius, 0 for OFF, on Enter', async () => {
    const calls: Call[] = [];
    server.use(searchApi(calls));
    const user = renderBox();
    await chooseRadius(user, '25m');
    await user.type(term(), '4.81,45.76{Enter}');
    await waitFor(() => {
      expect(calls).toEqual([{ q: '4.81,45.76', radius: '25' }]);
    });

    await chooseRadius(user, 'OFF');
    expect(radius()).toHaveTextContent('OFF');
    await user.type(term(), '{Enter}');
    await waitFor(() => {
      expect(calls[1]).toEqual({ q: '4.81,45.76', radius: '0' });
    });
  });

  it('offers OFF and 5m to 200m in steps of 5', async () => {
    const user = renderBox();
    await user.click(radius());
    const options = within(screen.getByRole('listbox')).getAllByRole('option').map((o) => o.textContent);
    expect(options).toHaveLength(41);
    expect(options.slice(0, 3)).toEqual(['OFF', '5m', '10m']);
    expect(options.at(-1)).toBe('200m');
    expect(screen.getByRole('option', { name: '150m' })).toHaveAttribute('aria-selected', 'true');
  });

  it('opens the results as not found when nothing matches', async () => {
    server.use(searchApi([], () => HttpResponse.json([])));
    const user = renderBox();
    await user.type(term(), 'nothing{Enter}');
    expect(await screen.findByText('No matching devices found')).toBeInTheDocument();
  });

  it('opens the results as not found when the search fails', async () => {
    server.use(searchApi([], () => HttpResponse.json({ code: 'internal', message: 'boom' }, { status: 500 })));
    const user = renderBox();
    await user.type(term(), 'GTW{Enter}');
    expect(await screen.findByText('No matching devices found')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/search');
  });
});
