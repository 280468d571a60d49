// jsdom has no `matchMedia`: this one answers `(prefers-color-scheme: dark)`
// as the test sets it, and tells its listeners when that changes, as a
// browser does when the system's theme changes. Every other query is false.
// Call it in a test: the test's end takes it away.
import { onTestFinished } from 'vitest';

type Listener = (event: { matches: boolean }) => void;

export function fakeSystemTheme(initial: 'light' | 'dark') {
  let dark = initial === 'dark';
  const listeners = new Set<Listener>();
  const matchMedia = (query: string) => {
    const isScheme = query.includes('prefers-color-scheme: dark');
    return {
      get matches() {
        return isScheme && dark;
      },
      media: query,
      onchange: null,
      addListener: (listener: Listener) => listeners.add(listener),
      removeListener: (listener: Listener) => listeners.delete(listener),
      addEventListener: (_type: string, listener: Listener) => listeners.add(listener),
      removeEventListener: (_type: string, listener: Listener) => listeners.delete(listener),
      dispatchEvent: () => true,
    };
  };
  Object.defineProperty(window, 'matchMedia', { configurable: true, writable: true, value: matchMedia });
  onTestFinished(() => {
    Reflect.deleteProperty(window, 'matchMedia');
  });
  return {
    /** The system switches to `theme`. */
    become(theme: 'light' | 'dark') {
      dark = theme === 'dark';
      for (const listener of listeners) listener({ matches: dark });
    },
  };
}
