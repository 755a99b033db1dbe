import { badRequest } from '@wa/core/errors';
import { NO_DATA } from '@wa/core/validate';
import { WHATSAPP } from '@wa/shared';
import { type RequestHandler, Router } from 'express';
import { actorOf } from '../../http/auth';
import { bind } from '../../http/route';
import type { WhatsappService } from './whatsapp.service';
import type { WhatsappLogins } from './whatsapp-login.service';
import type { OneOffSends } from './whatsapp-send.service';

/** The three services behind /api/admin/whatsapp, as createApp builds them. */
export interface WhatsappServices {
  /** the saved accounts: reading, counts, interval, suspension, reconnect and blasting */
  accounts: WhatsappService;
  /** new-client, qr-new-client, client-state, remove-client and save */
  logins: WhatsappLogins;
  /** send-message/1, the blaster form's one-off sends */
  sends: OneOffSends;
}

/** An empty body is 'No Data' before any field is named. */
const someData: RequestHandler = (req, _res, next) => {
  const body: unknown = req.body;
  if (!body || typeof body !== 'object' || !Object.keys(body).length) throw badRequest(NO_DATA);
  next();
};

/**
 * §7 WhatsApp: /api/admin/whatsapp/…, as declared in shared/src/api/whatsapp.ts. Each route lets
 * in the roles the policy gives its ability; the service asks again with the account's owner once
 * it has the account (a bad body is refused before a missing or somebody else's account, as it
 * always was).
 */
export function whatsappRoutes({ accounts: wa, logins, sends }: WhatsappServices): Router {
  const r = Router();
  bind(r, WHATSAPP.newClient, ({ req, body }) => logins.newClient(actorOf(req), body));
  bind(r, WHATSAPP.removeClient, ({ req, body }) => logins.removeClient(actorOf(req), body));
  bind(r, WHATSAPP.qr, ({ req, params }) => logins.qr(actorOf(req), params.deviceId));
  bind(r, WHATSAPP.clientState, ({ req, params }) => logins.clientState(actorOf(req), params.deviceId));
  bind(r, WHATSAPP.latestMessage, ({ req, params }) => wa.latestMessage(actorOf(req), params.id));
  bind(r, WHATSAPP.sendMessage, ({ req, body }) => sends.send(actorOf(req), body));
  bind(r, WHATSAPP.save, ({ req, body }) => logins.save(actorOf(req), body), { before: [someData] });
  bind(r, WHATSAPP.listAll, ({ req }) => wa.listAll(actorOf(req)));
  bind(r, WHATSAPP.listPerPage, ({ req, query }) => wa.listPerPage(actorOf(req), query));
  bind(r, WHATSAPP.listForUser, ({ req, params, query }) =>
    wa.listForUser(actorOf(req), params.userId, query.synced === 'true' || query.synced === '1'),
  );
  bind(r, WHATSAPP.count, ({ req, params }) => wa.count(actorOf(req), params.userId));
  bind(r, WHATSAPP.setStatus, ({ req, body }) => wa.setStatus(actorOf(req), body));
  bind(r, WHATSAPP.setInterval, ({ req, body }) => wa.setInterval(actorOf(req), body));
  bind(r, WHATSAPP.reset, ({ req, body }) => wa.reset(actorOf(req), body));
  bind(r, WHATSAPP.liftPause, ({ req, body }) => wa.liftPause(actorOf(req), body));
  bind(r, WHATSAPP.activate, ({ req, body }) => wa.activate(actorOf(req), body));
  bind(r, WHATSAPP.startBlasting, ({ req, body }) => wa.startBlasting(actorOf(req), body));
  bind(r, WHATSAPP.stopBlasting, ({ req, body }) => wa.stopBlasting(actorOf(req), body));
  bind(r, WHATSAPP.reconnect, ({ req, body }) => wa.reconnect(actorOf(req), body));
  bind(r, WHATSAPP.get, async ({ req, params }) => ({ whatsapp: await wa.get(actorOf(req), params.id) }));
  return r;
}
