// Renderer entry: loads the stylesheet and mounts the React application into #root.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import './styles.css';

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('The page has no #root element to mount Treasury Desk into.');
createRoot(rootElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
