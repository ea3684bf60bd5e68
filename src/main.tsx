import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App';
import { loadFromHash, syncHash } from './ui/urlSync';
import './ui/styles.css';

// The link is read before the first render, so the page never shows the defaults first.
const autostart = loadFromHash();
syncHash();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App autostart={autostart} />
  </StrictMode>,
);
