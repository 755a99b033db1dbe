import { parse } from '@wa/core/validate';
import { counterUserParam, deviceIdParam, idParam, whatsappListQuery } from '@wa/shared';
import { Router } from 'express';
import { actorOf, requireRoles } from '../../http/auth';
import type { WhatsappService } from './whatsapp.service';

/** §7 WhatsApp: /api/admin/whatsapp/… */
export function whatsappRoutes(wa: WhatsappService): Router {
  const r = Router();
  const anyRole = requireRoles('member', 'staff', 'dev', 'admin');
  const listRoles = requireRoles('member', 'dev', 'admin', 'staff');
  const privileged = requireRoles('admin', 'dev');

  r.post('/new-client', anyRole, async (req, res) => {
    res.status(201).json(await wa.logins.newClient(actorOf(req), req.body));
  });
  r.post('/remove-client', anyRole, async (req, res) => {
    res.json(await wa.logins.removeClient(actorOf(req), req.body));
  });
  r.get('/qr-new-client/:deviceId', anyRole, async (req, res) => {
    res.json(await wa.logins.qr(actorOf(req), parse(deviceIdParam, req.params.deviceId)));
  });
  r.get('/client-state/:deviceId', anyRole, async (req, res) => {
    res.json(await wa.logins.clientState(actorOf(req), parse(deviceIdParam, req.params.deviceId)));
  });
  r.get('/listen-message-created/:id', anyRole, async (req, res) => {
    res.json(await wa.latestMessage(actorOf(req), parse(idParam, req.params.id)));
  });
  r.post('/send-message/1', requireRoles('member', 'dev', 'admin'), async (req, res) => {
    res.json(await wa.sends.send(actorOf(req), req.body));
  });
  r.post('/save', anyRole, async (req, res) => {
    res.status(201).json(await wa.logins.save(actorOf(req), req.body));
  });
  r.get('/list', privileged, async (_req, res) => {
    res.json(await wa.listAll());
  });
  r.get('/list-per-page', listRoles, async (req, res) => {
    res.json(await wa.listPerPage(actorOf(req), parse(whatsappListQuery, req.query)));
  });
  r.get('/list/:userId', listRoles, async (req, res) => {
    const synced = req.query.synced === 'true' || req.query.synced === '1';
    res.json(await wa.listForUser(actorOf(req), parse(idParam, req.params.userId), synced));
  });
  r.get('/count/:userId', anyRole, async (req, res) => {
    res.json(await wa.count(actorOf(req), parse(counterUserParam, req.params.userId)));
  });
  r.put('/status', privileged, async (req, res) => {
    res.json(await wa.setStatus(req.body));
  });
  r.put('/interval', listRoles, async (req, res) => {
    res.json(await wa.setInterval(actorOf(req), req.body));
  });
  r.post('/reset', listRoles, async (req, res) => {
    res.json(await wa.reset(actorOf(req), req.body));
  });
  r.post('/activate', privileged, async (req, res) => {
    res.json(await wa.activate(req.body));
  });
  // §6: Start/Stop Blast is for members (their own accounts) and dev; admins only see Sending
  r.post('/start-blasting', requireRoles('member', 'dev'), async (req, res) => {
    res.json(await wa.startBlasting(actorOf(req), req.body));
  });
  r.post('/stop-blasting', requireRoles('member', 'dev'), async (req, res) => {
    res.json(await wa.stopBlasting(actorOf(req), req.body));
  });
  r.post('/reconnect', requireRoles('member', 'dev'), async (req, res) => {
    res.json(await wa.reconnect(actorOf(req), req.body));
  });
  r.get('/:id', anyRole, async (req, res) => {
    res.json({ whatsapp: await wa.get(actorOf(req), parse(idParam, req.params.id)) });
  });
  return r;
}
