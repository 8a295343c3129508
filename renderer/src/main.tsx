// Renderer entry: loads the stylesheet, starts reporting the window's unexpected errors to main's log, and mounts the
// React application into #root behind the error boundary.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { ErrorBoundary } from './components/ErrorBoundary';
import { startErrorReporting } from './error-reporting';
import './styles.css';

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('The page has no #root element to mount Treasury Desk into.');
startErrorReporting();
createRoot(rootElement).render(
  <StrictMode>
    <ErrorBoundary>
      <App />
    </ErrorBoundary>
  </StrictMode>,
);
