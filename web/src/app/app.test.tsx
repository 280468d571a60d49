import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { App } from './app.tsx';

describe('App shell', () => {
  it('shows the product name as the page heading', () => {
    render(<App />);

    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/^w-meter$/);
  });

  it('shows the exact footer text from the spec', () => {
    render(<App />);

    const footer = screen.getByRole('contentinfo');
    expect(footer.textContent).toBe('© 2025 w-meter. All rights reserved.');
  });
});
