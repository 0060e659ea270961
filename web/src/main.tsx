import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { preferredLanguage, setLanguage } from './lib/i18n';
import './styles.css';

// The first screen renders in the patient's language: Spanish loads before it, English is already here.
void setLanguage(preferredLanguage()).finally(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
