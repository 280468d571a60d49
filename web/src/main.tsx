import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from './app/app.tsx';
import { initI18n } from './lib/i18n.ts';
import './index.css';

const rootElement = document.getElementById('root');
if (!rootElement) {
  throw new Error('index.html has no #root element');
}

initI18n();

createRoot(rootElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
