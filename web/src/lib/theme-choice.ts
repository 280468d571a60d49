// The colour theme a user chooses: the system's (it follows the device's
// `prefers-color-scheme`, live), light or dark. MUI's ThemeProvider keeps the
// choice in localStorage under THEME_KEY, so the sign-in page and the first
// paint use it before the server's preferences answer.
export const THEME_CHOICES = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

export const THEME_KEY = 'theme';

export function isThemeChoice(value: unknown): value is ThemeChoice {
  return typeof value === 'string' && (THEME_CHOICES as readonly string[]).includes(value);
}
