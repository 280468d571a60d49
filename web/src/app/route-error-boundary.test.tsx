import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';

import { RouteErrorBoundary } from './route-error-boundary.tsx';

const at = (pathname: string) => ({ pathname, search: '', hash: '', state: null, key: pathname });

function Broken(): never {
  throw new Error('the chunk failed to load');
}

describe('a screen that fails', () => {
  it('shows the error screen with the reason, until the location changes', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const first = at('/map');
    const { rerender } = render(
      <RouteErrorBoundary location={first}>
        <Broken />
      </RouteErrorBoundary>,
      { wrapper: MemoryRouter },
    );
    expect(screen.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeInTheDocument();
    expect(screen.getByText('the chunk failed to load')).toBeInTheDocument();
    expect(console.error).toHaveBeenCalledWith('routing failed', expect.any(Error));

    rerender(
      <RouteErrorBoundary location={first}>
        <p>still broken</p>
      </RouteErrorBoundary>,
    );
    expect(screen.queryByText('still broken')).toBeNull();

    rerender(
      <RouteErrorBoundary location={at('/')}>
        <p>the overview</p>
      </RouteErrorBoundary>,
    );
    expect(screen.getByText('the overview')).toBeInTheDocument();
  });
});
