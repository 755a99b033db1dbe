import { openApiDocument } from '../contract/docs';
import { routes } from './define';

/** Issue 13, public: the OpenAPI document and Swagger UI on it. */
export const DOCS = routes('docs', '', {
  openApi: {
    method: 'get',
    path: '/openapi.json',
    summary: 'This OpenAPI document',
    access: 'public',
    response: openApiDocument,
  },
  page: {
    method: 'get',
    path: '/docs',
    summary: 'Swagger UI for this document',
    access: 'public',
    produces: 'text/html',
  },
  init: {
    method: 'get',
    path: '/docs/init.js',
    summary: "Swagger UI's start-up script",
    access: 'public',
    produces: 'text/javascript',
  },
});
