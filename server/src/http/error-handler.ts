import { infraErrorOf } from '@wa/core/dependencies';
import { AppError } from '@wa/core/errors';
import type { Logger } from '@wa/core/logger';
import type { ErrorRequestHandler, RequestHandler } from 'express';

/** Unknown /api paths answer a JSON 404, never the SPA. */
export const apiNotFound: RequestHandler = (req, res) => {
  res.status(404).json({ msg: `Not found: ${req.method} ${req.originalUrl.split('?')[0]}` });
};

interface HttpishError {
  type?: string;
  status?: number;
  statusCode?: number;
  code?: string;
}

/** The SQLSTATE of a database error, also when drizzle wraps it (as `cause`). */
export function sqlState(err: unknown): string | null {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * A database error caused by the value a client sent (SQLSTATE class 22, "data exception": a NUL
 * or a byte sequence the encoding cannot hold, a number out of range, a malformed date) is a 400
 * with a message, not a 500.
 */
function clientDataError(code: string | null): string | null {
  if (code === null || !code.startsWith('22')) return null;
  if (code === '22021' || code === '22P05') return 'Text must not contain NUL characters or invalid byte sequences.';
  if (code === '22003') return 'A number in the request is out of range.';
  return 'A value in the request is not valid.';
}

/** What a request meets while a dependency is away (503): try again shortly. */
const OUTAGE_TEXTS = {
  database: 'Database sedang tidak dapat dihubungi. Silakan coba lagi sebentar lagi.',
  redis: 'Redis sedang tidak dapat dihubungi. Silakan coba lagi sebentar lagi.',
} as const;

/** Turns every error into JSON `{msg}`; only unexpected ones are logged. */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    if (res.headersSent) return;
    if (err instanceof AppError) {
      res.status(err.status).json({
        msg: err.message,
        ...(err.errors ? { errors: err.errors } : {}),
        ...(err.code !== undefined ? { code: err.code } : {}),
      });
      return;
    }
    const e = (err ?? {}) as HttpishError;
    if (e.type === 'entity.parse.failed') {
      res.status(400).json({ msg: 'Malformed JSON in request body' });
      return;
    }
    if (e.type === 'entity.too.large') {
      res.status(413).json({ msg: 'Request body is too large' });
      return;
    }
    if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') {
      res.status(415).json({ msg: 'Unsupported request encoding' });
      return;
    }
    const status = e.status ?? e.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      res.status(status).json({ msg: err instanceof Error ? err.message : 'Bad request' });
      return;
    }
    const dataError = clientDataError(sqlState(err));
    if (dataError) {
      res.status(400).json({ msg: dataError });
      return;
    }
    // an outage is not the request's fault nor a bug: 503, and the monitor's log says the rest
    const down = infraErrorOf(err);
    if (down) {
      log.debug({ dependency: down, method: req.method, path: req.originalUrl.split('?')[0] }, 'answered 503: outage');
      res.status(503).json({ msg: OUTAGE_TEXTS[down] });
      return;
    }
    // the path only: a query string can hold search text or a token
    log.error({ err, method: req.method, path: req.originalUrl.split('?')[0] }, 'unexpected error');
    res.status(500).json({ msg: 'Internal server error' });
  };
}
