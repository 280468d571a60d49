// Volumes with their unit in the signed-in user's language (docs/web.md, Volumes).
import { useTranslation } from 'react-i18next';

import { formatVolume } from './format.ts';

export function useVolume(): (litres: number | null | undefined) => string {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  return (litres) => formatVolume(litres, language);
}
