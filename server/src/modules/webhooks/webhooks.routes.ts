import { parse } from '@wa/core/validate';
import { createWebhookBody, idParam, updateWebhookBody } from '@wa/shared';
import { Router } from 'express';
import { actorOf } from '../../http/auth';
import type { WebhooksService } from './webhooks.service';

/** /api/admin/webhooks: the caller's own webhook endpoints and their deliveries (every role). */
export function webhooksRoutes(hooks: WebhooksService): Router {
  const r = Router();
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
    const deliveryId = parse(idParam, req.params.deliveryId);
    res.status(202).json(await hooks.resend(actorOf(req), id, deliveryId));
  });
  return r;
}
