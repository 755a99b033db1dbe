import { createRequire } from 'node:module';
import path from 'node:path';
import { type Answer, DOCS } from '@wa/shared';
import express, { Router } from 'express';
import { bind } from '../../http/route';
import { buildOpenApi } from './openapi';

/** Swagger UI's files, from the swagger-ui-dist npm package (never a CDN). */
const swaggerDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/**
 * The docs page runs only our own scripts (Swagger UI's bundle and init.js, no inline script, no
 * eval); Swagger UI styles elements inline and draws its icons from data: URLs.
 */
const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Starts Swagger UI on the document whose URL the page gives in #swagger-ui's data-url. */
const INIT_JS = `window.addEventListener('load', function () {
  var el = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: el.getAttribute('data-url'),
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
  });
});
`;

function page(base: string): string {
  const assets = `${base}/docs/assets`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>WA Blaster API</title>
<link rel="stylesheet" href="${assets}/swagger-ui.css">
<link rel="icon" type="image/png" href="${assets}/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui" data-url="${base}/openapi.json"></div>
<script src="${assets}/swagger-ui-bundle.js"></script>
<script src="${assets}/swagger-ui-standalone-preset.js"></script>
<script src="${base}/docs/init.js"></script>
</body>
</html>
`;
}

/**
 * Issue 13, public: GET /api/openapi.json (the OpenAPI 3.1 document of every /api route, built
 * once from the declarations and the zod contract) and GET /api/docs (Swagger UI on it); as
 * declared in shared/src/api/docs.ts.
 */
export function docsRoutes(): Router {
  const r = Router();
  let doc: Answer<typeof DOCS.openApi> | null = null;
  bind(r, DOCS.openApi, () => {
    // the builder's plain object, checked once against the declared answer
    doc ??= DOCS.openApi.response.parse(buildOpenApi());
    return doc;
  });
  bind(r, DOCS.page, ({ req, res }) => {
    res.setHeader('Content-Security-Policy', DOCS_CSP);
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(page(req.baseUrl));
  });
  bind(r, DOCS.init, ({ res }) => {
    res.type('text/javascript').send(INIT_JS);
  });
  r.use(
    '/docs/assets',
    express.static(swaggerDir, {
      index: false,
      maxAge: '1d',
      setHeaders: (res) => res.setHeader('Content-Security-Policy', DOCS_CSP),
    }),
  );
  return r;
}
