import { idParam } from '../contract/common';
import {
  createdWebhook,
  createWebhookBody,
  deletedWebhook,
  deliveryIdParam,
  resentDelivery,
  updateWebhookBody,
  webhookDeliveryList,
  webhookDto,
  webhookList,
} from '../contract/webhooks';
import { routes } from './define';

/**
 * /api/admin/webhooks (issue 13): every role but staff manages its own endpoints; the events each
 * hears and the addresses it may use depend on the role (docs/WEBHOOKS.md). What a delivery posts
 * is in the document's top-level `webhooks` (openapi.ts).
 */
export const WEBHOOKS = routes('webhooks', '/admin/webhooks', {
  create: {
    method: 'post',
    path: '/',
    summary: 'Register a webhook endpoint (201; its signing secret is shown once)',
    access: 'webhook.manage',
    body: createWebhookBody,
    status: 201,
    response: createdWebhook,
  },
  list: {
    method: 'get',
    path: '/',
    summary: "The caller's webhook endpoints",
    access: 'webhook.manage',
    response: webhookList,
  },
  update: {
    method: 'put',
    path: '/{id}',
    summary: 'Change a webhook endpoint (`active: false` pauses it)',
    access: 'webhook.manage',
    params: { id: idParam },
    body: updateWebhookBody,
    response: webhookDto,
  },
  remove: {
    method: 'delete',
    path: '/{id}',
    summary: 'Delete a webhook endpoint',
    access: 'webhook.manage',
    params: { id: idParam },
    response: deletedWebhook,
  },
  deliveries: {
    method: 'get',
    path: '/{id}/deliveries',
    summary: "An endpoint's latest 50 deliveries",
    access: 'webhook.manage',
    params: { id: idParam },
    response: webhookDeliveryList,
  },
  resend: {
    method: 'post',
    path: '/{id}/deliveries/{deliveryId}/resend',
    summary: "Send a delivery's event again (202; a new delivery with the same event id)",
    access: 'webhook.manage',
    params: { id: idParam, deliveryId: deliveryIdParam },
    status: 202,
    response: resentDelivery,
  },
});
