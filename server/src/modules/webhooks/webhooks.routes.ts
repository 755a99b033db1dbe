import { WEBHOOKS } from '@wa/shared';
import { type ErrorRequestHandler, Router } from 'express';
import { actorOf } from '../../http/auth';
import { bind } from '../../http/route';
import { TooManyWebhookWrites, type WebhooksService } from './webhooks.service';

/** A 429 for too many writes tells the client when to try again. */
const retryAfter: ErrorRequestHandler = (err, _req, res, next) => {
  if (err instanceof TooManyWebhookWrites) res.setHeader('Retry-After', String(err.retryAfterS));
  next(err);
};

/**
 * /api/admin/webhooks: the caller's own webhook endpoints and their deliveries (admins, devs,
 * members); as declared in shared/src/api/webhooks.ts. Staff have no webhooks: each route's guard
 * answers their 403 before any check of the request.
 */
export function webhooksRoutes(hooks: WebhooksService): Router {
  const r = Router();
  bind(r, WEBHOOKS.create, ({ body, req }) => hooks.create(actorOf(req), body));
  bind(r, WEBHOOKS.list, async ({ req }) => ({ data: await hooks.list(actorOf(req)) }));
  bind(r, WEBHOOKS.update, ({ params, body, req }) => hooks.update(actorOf(req), params.id, body));
  bind(r, WEBHOOKS.remove, ({ params, req }) => hooks.remove(actorOf(req), params.id));
  bind(r, WEBHOOKS.deliveries, async ({ params, req }) => ({ data: await hooks.deliveries(actorOf(req), params.id) }));
  bind(r, WEBHOOKS.resend, ({ params, req }) => hooks.resend(actorOf(req), params.id, params.deliveryId));
  r.use(retryAfter);
  return r;
}
