import type { RequestHandler } from 'express';

/**
 * The routes whose clients read a failure's text from `error` (spec §7: start- and stop-blasting,
 * bonus create, the generator's and validator's start and stop), relative to /api. Their failures
 * answer `{msg, error}` with the same text; every other route answers `{msg}`.
 */
export const ERROR_FIELD_PATHS = [
  '/admin/whatsapp/start-blasting',
  '/admin/whatsapp/stop-blasting',
  '/admin/bonus/create',
  '/admin/generator/start',
  '/admin/generator/stop',
  '/admin/validator/start',
  '/admin/validator/stop',
];

/**
 * Copies a failure's `msg` into `error` on the way out. Mounted before authentication and body
 * parsing, so a 401, a malformed body and a service's refusal all carry both.
 */
export const echoErrorField: RequestHandler = (_req, res, next) => {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    if (res.statusCode >= 400 && body && typeof body === 'object' && !('error' in body)) {
      const msg = (body as { msg?: unknown }).msg;
      if (typeof msg === 'string') return json({ ...body, error: msg });
    }
    return json(body);
  };
  next();
};
