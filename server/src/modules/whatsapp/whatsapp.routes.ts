import { badRequest } from '@wa/core/errors';
import { NO_DATA, parse } from '@wa/core/validate';
import {
  accountIdBody,
  blastBody,
  counterUserParam,
  deviceIdParam,
  idParam,
  intervalBody,
  newClientBody,
  removeClientBody,
  saveWhatsappBody,
  sendMessageBody,
  statusBody,
  whatsappListQuery,
} from '@wa/shared';
import { Router } from 'express';
import { actorOf, allow } from '../../http/auth';
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

/**
 * §7 WhatsApp: /api/admin/whatsapp/…. Each route lets in the roles the policy gives its ability;
 * the service asks again with the account's owner once it has the account (a bad body is refused
 * before a missing or somebody else's account, as it always was).
 */
export function whatsappRoutes({ accounts: wa, logins, sends }: WhatsappServices): Router {
  const r = Router();
  const login = allow('account.create-login');
  const read = allow('account.read');
  const edit = allow('account.edit');
  const blast = allow('account.blast');

  r.post('/new-client', login, async (req, res) => {
    res.status(201).json(await logins.newClient(actorOf(req), parse(newClientBody, req.body)));
  });
  r.post('/remove-client', login, async (req, res) => {
    res.json(await logins.removeClient(actorOf(req), parse(removeClientBody, req.body)));
  });
  r.get('/qr-new-client/:deviceId', login, async (req, res) => {
    res.json(await logins.qr(actorOf(req), parse(deviceIdParam, req.params.deviceId)));
  });
  r.get('/client-state/:deviceId', login, async (req, res) => {
    res.json(await logins.clientState(actorOf(req), parse(deviceIdParam, req.params.deviceId)));
  });
  r.get('/listen-message-created/:id', read, async (req, res) => {
    res.json(await wa.latestMessage(actorOf(req), parse(idParam, req.params.id)));
  });
  r.post('/send-message/1', allow('account.send'), async (req, res) => {
    res.json(await sends.send(actorOf(req), parse(sendMessageBody, req.body)));
  });
  r.post('/save', login, async (req, res) => {
    // an empty body is 'No Data' before any field is named
    const body: unknown = req.body;
    if (!body || typeof body !== 'object' || !Object.keys(body).length) throw badRequest(NO_DATA);
    res.status(201).json(await logins.save(actorOf(req), parse(saveWhatsappBody, body)));
  });
  r.get('/list', allow('account.list-all'), async (req, res) => {
    res.json(await wa.listAll(actorOf(req)));
  });
  r.get('/list-per-page', read, async (req, res) => {
    res.json(await wa.listPerPage(actorOf(req), parse(whatsappListQuery, req.query)));
  });
  r.get('/list/:userId', read, async (req, res) => {
    const synced = req.query.synced === 'true' || req.query.synced === '1';
    res.json(await wa.listForUser(actorOf(req), parse(idParam, req.params.userId), synced));
  });
  r.get('/count/:userId', read, async (req, res) => {
    res.json(await wa.count(actorOf(req), parse(counterUserParam, req.params.userId)));
  });
  r.put('/status', allow('account.status'), async (req, res) => {
    res.json(await wa.setStatus(actorOf(req), parse(statusBody, req.body)));
  });
  r.put('/interval', edit, async (req, res) => {
    res.json(await wa.setInterval(actorOf(req), parse(intervalBody, req.body)));
  });
  r.post('/reset', edit, async (req, res) => {
    res.json(await wa.reset(actorOf(req), parse(accountIdBody, req.body)));
  });
  r.post('/lift-pause', allow('account.lift-pause'), async (req, res) => {
    res.json(await wa.liftPause(actorOf(req), parse(accountIdBody, req.body)));
  });
  r.post('/activate', allow('account.activate'), async (req, res) => {
    res.json(await wa.activate(actorOf(req), parse(accountIdBody, req.body)));
  });
  // §6: Start/Stop Blast is for members (their own accounts) and dev; admins only see Sending
  r.post('/start-blasting', blast, async (req, res) => {
    res.json(await wa.startBlasting(actorOf(req), parse(blastBody, req.body)));
  });
  r.post('/stop-blasting', blast, async (req, res) => {
    res.json(await wa.stopBlasting(actorOf(req), parse(blastBody, req.body)));
  });
  r.post('/reconnect', allow('account.reconnect'), async (req, res) => {
    res.json(await wa.reconnect(actorOf(req), parse(accountIdBody, req.body)));
  });
  r.get('/:id', read, async (req, res) => {
    res.json({ whatsapp: await wa.get(actorOf(req), parse(idParam, req.params.id)) });
  });
  return r;
}
