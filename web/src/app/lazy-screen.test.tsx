import { describe, expect, it, vi } from 'vitest';

import { lazyScreen, preloadScreens } from './lazy-screen.tsx';

const at = (pathname: string) => ({ pathname, search: '', hash: '', state: null, key: pathname });
const loader = () => vi.fn(() => new Promise<never>(() => undefined));

describe('the screens of a location', () => {
  it('start loading together: the shell and its page, not the other pages', () => {
    const [shell, overview, map, login] = [loader(), loader(), loader(), loader()];
    const routes = [
      { path: '/login', ...lazyScreen(login) },
      { ...lazyScreen(shell), children: [{ index: true, ...lazyScreen(overview) }, { path: 'map', ...lazyScreen(map) }] },
    ];

    preloadScreens(routes, at('/map'));

    expect(shell).toHaveBeenCalledOnce();
    expect(map).toHaveBeenCalledOnce();
    expect(overview).not.toHaveBeenCalled();
    expect(login).not.toHaveBeenCalled();
  });
});
