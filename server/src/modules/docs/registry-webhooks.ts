import {
  createdWebhook,
  createWebhookBody,
  deletedWebhook,
  deliveryIdParam,
  idParam,
  resentDelivery,
  updateWebhookBody,
  webhookDeliveryList,
  webhookDto,
  webhookList,
} from '@wa/shared';
import { group, id, type RouteDoc } from './route-doc';

/** A delivery of one of the caller's endpoints. */
const delivery = { id: idParam, deliveryId: deliveryIdParam };

/**
 * /api/admin/webhooks (issue 13): every role manages its own endpoints; the events each hears and
 * the addresses it may use depend on the role (docs/WEBHOOKS.md). What a delivery posts is in the
 * document's top-level `webhooks` (openapi.ts).
 */
export const WEBHOOK_ROUTES: RouteDoc[] = group('webhooks', '/admin/webhooks', [
  {
    method: 'post',
    path: '/',
    summary: 'Register a webhook endpoint (201; its signing secret is shown once)',
    access: 'webhook.manage',
    body: createWebhookBody,
    status: 201,
    response: createdWebhook,
  },
  {
    method: 'get',
    path: '/',
    summary: "The caller's webhook endpoints",
    access: 'webhook.manage',
    response: webhookList,
  },
  {
    method: 'put',
    path: '/{id}',
    summary: 'Change a webhook endpoint (`active: false` pauses it)',
    access: 'webhook.manage',
    params: id,
    body: updateWebhookBody,
    response: webhookDto,
  },
  {
    method: 'delete',
    path: '/{id}',
    summary: 'Delete a webhook endpoint',
    access: 'webhook.manage',
    params: id,
    response: deletedWebhook,
  },
  {
    method: 'get',
    path: '/{id}/deliveries',
    summary: "An endpoint's latest 50 deliveries",
    access: 'webhook.manage',
    params: id,
    response: webhookDeliveryList,
  },
  {
    method: 'post',
    path: '/{id}/deliveries/{deliveryId}/resend',
    summary: "Send a delivery's event again (202; a new delivery with the same event id)",
    access: 'webhook.manage',
    params: delivery,
    status: 202,
    response: resentDelivery,
  },
]);
