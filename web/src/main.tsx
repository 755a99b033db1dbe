// first: it configures zod before any schema of @wa/shared is built
import './zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import './app.css';
import { reloadOnStaleChunks } from './lib/lazy-screen';
import { router } from './router';

reloadOnStaleChunks();
const root = document.getElementById('root');
if (!root) throw new Error('no #root element');
createRoot(root).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
