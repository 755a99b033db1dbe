import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '../logger';
import { AppError } from './errors';

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
    log.error({ err, method: req.method, url: req.originalUrl }, 'unexpected error');
    res.status(500).json({ msg: 'Internal server error' });
  };
}
