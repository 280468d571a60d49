import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { lazyScreen, loadScreens } from './lazy-screen.tsx';

const at = (pathname: string) => ({ pathname, search: '', hash: '', state: null, key: pathname });
const chunk = (text: string) => vi.fn(() => Promise.resolve({ default: () => <p>{text}</p> }));

describe('the screens of a location', () => {
  it('load together, the shell and its page but not the other pages, then draw without suspending', async () => {
    const [shell, overview, map, login] = [chunk('shell'), chunk('overview'), chunk('map'), chunk('login')];
    const mapScreen = lazyScreen(map);
    const routes = [
      { path: '/login', ...lazyScreen(login) },
      { ...lazyScreen(shell), children: [{ index: true, ...lazyScreen(overview) }, { path: 'map', ...mapScreen }] },
    ];

    await loadScreens(routes, at('/map'));

    expect(shell).toHaveBeenCalledOnce();
    expect(map).toHaveBeenCalledOnce();
    expect(overview).not.toHaveBeenCalled();
    expect(login).not.toHaveBeenCalled();
    render(mapScreen.element);
    expect(screen.getByText('map')).toBeInTheDocument();
  });
});
