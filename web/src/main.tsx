import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from './app/app.tsx';
import { applyLanguage, initI18n, storedLanguage } from './lib/i18n.ts';
import './index.css';

const rootElement = document.getElementById('root');
if (!rootElement) {
  throw new Error('index.html has no #root element');
}

initI18n();

// Nothing renders before the stored language's strings are in; should they
// fail to load, the page shows in English rather than not at all.
void applyLanguage(storedLanguage())
  .catch((error: unknown) => {
    console.error('the language could not be loaded', error);
  })
  .finally(() => {
    createRoot(rootElement).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
