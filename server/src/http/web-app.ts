import { existsSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import express, { Router } from 'express';

/**
 * The dashboard's Content-Security-Policy: only our own scripts (no inline script, no eval), so
 * an injected string cannot read the script-readable auth cookie of §3; never framed. Images may
 * come from https (a template's media can be an external URL) and data: (the QR code).
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const csp = (res: ServerResponse) => res.setHeader('Content-Security-Policy', DASHBOARD_CSP);

/**
 * The built dashboard (`dist`, web/dist): its files and, for every other GET, index.html, since the
 * single-page app routes (and shows not-found) itself. Without a build, a GET says how to make one.
 *
 * Caching (issue 23): Vite names each file under assets/ after a hash of its content, so a name
 * never changes its bytes and the browser keeps them a year without asking again; a name that is
 * not there is a 404, not the app's page (a page of an older build asking for a script must get a
 * failed script, not HTML). index.html and the files without a hash (theme-init.js, the icon) are
 * asked again on every load (a 304 while unchanged), so a new build is seen at once.
 */
export function webAppRoutes(dist: string | null): Router {
  const r = Router();
  const index = dist ? path.join(dist, 'index.html') : null;
  if (!dist || !index || !existsSync(index)) {
    r.use((req, res, next) => {
      if (req.method !== 'GET') return next();
      res.status(503).type('text').send('The dashboard is not built. Run `npm start` (it builds web/ first).');
    });
    return r;
  }
  r.use(
    '/assets',
    express.static(path.join(dist, 'assets'), { index: false, immutable: true, maxAge: '1y', setHeaders: csp }),
    (_req, res) => {
      res.status(404).json({ msg: 'Not found' });
    },
  );
  r.use(
    express.static(dist, {
      index: false,
      cacheControl: false,
      setHeaders: (res) => {
        res.setHeader('Cache-Control', 'no-cache');
        csp(res);
      },
    }),
  );
  r.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    res.setHeader('Cache-Control', 'no-cache');
    csp(res);
    res.sendFile(index);
  });
  return r;
}
