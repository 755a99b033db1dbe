import { parse } from '@wa/core/validate';
import { createWebhookBody, deliveryIdParam, idParam, updateWebhookBody } from '@wa/shared';
import { type ErrorRequestHandler, Router } from 'express';
import { actorOf, allow } from '../../http/auth';
import { TooManyWebhookWrites, type WebhooksService } from './webhooks.service';

/** A 429 for too many writes tells the client when to try again. */
const retryAfter: ErrorRequestHandler = (err, _req, res, next) => {
  if (err instanceof TooManyWebhookWrites) res.setHeader('Retry-After', String(err.retryAfterS));
  next(err);
};

/** /api/admin/webhooks: the caller's own webhook endpoints and their deliveries (admins, devs, members). */
export function webhooksRoutes(hooks: WebhooksService): Router {
  const r = Router();
  // staff have no webhooks: their 403 comes before any check of the request
  r.use(allow('webhook.manage'));
  r.post('/', async (req, res) => {
    res.status(201).json(await hooks.create(actorOf(req), parse(createWebhookBody, req.body ?? {})));
  });
  r.get('/', async (req, res) => {
    res.json({ data: await hooks.list(actorOf(req)) });
  });
  r.put('/:id', async (req, res) => {
    const id = parse(idParam, req.params.id);
    res.json(await hooks.update(actorOf(req), id, parse(updateWebhookBody, req.body ?? {})));
  });
  r.delete('/:id', async (req, res) => {
    res.json(await hooks.remove(actorOf(req), parse(idParam, req.params.id)));
  });
  r.get('/:id/deliveries', async (req, res) => {
    res.json({ data: await hooks.deliveries(actorOf(req), parse(idParam, req.params.id)) });
  });
  r.post('/:id/deliveries/:deliveryId/resend', async (req, res) => {
    const id = parse(idParam, req.params.id);
    const deliveryId = parse(deliveryIdParam, req.params.deliveryId);
    res.status(202).json(await hooks.resend(actorOf(req), id, deliveryId));
  });
  r.use(retryAfter);
  return r;
}
