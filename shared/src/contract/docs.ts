import { z } from 'zod';

/** GET /openapi.json: an OpenAPI 3.1 document (this one). */
export const openApiDocument = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
});
