import { parse } from '@wa/core/validate';
import { counterUserParam, idParam, withdrawListQuery } from '@wa/shared';
import { Router } from 'express';
import { actorOf, requireRoles } from '../../http/auth';
import type { WithdrawService } from './withdraw.service';

/**
 * §7 Withdraw: /api/admin/withdraw/…. Members and devs request for themselves; admin, dev and
 * staff see every request; only an admin accepts, rejects or cancels (§2, §6).
 */
export function withdrawRoutes(withdraw: WithdrawService): Router {
  const r = Router();
  const counters = requireRoles('member', 'admin', 'dev');
  const everyone = requireRoles('member', 'admin', 'dev', 'staff');
  const handlers = requireRoles('admin', 'dev', 'staff');

  r.get('/balance/:userId', counters, async (req, res) => {
    res.json(await withdraw.balance(actorOf(req), parse(counterUserParam, req.params.userId)));
  });
  r.get('/income/:userId', counters, async (req, res) => {
    res.json(await withdraw.income(actorOf(req), parse(counterUserParam, req.params.userId)));
  });
  r.get('/total-requested/:userId', counters, async (req, res) => {
    res.json(await withdraw.total(actorOf(req), parse(counterUserParam, req.params.userId), 'requested'));
  });
  r.get('/total-accepted/:userId', counters, async (req, res) => {
    res.json(await withdraw.total(actorOf(req), parse(counterUserParam, req.params.userId), 'accepted'));
  });
  r.post('/request', requireRoles('member', 'dev'), async (req, res) => {
    res.status(201).json(await withdraw.request(actorOf(req), req.body));
  });
  r.get('/history/:userId', everyone, async (req, res) => {
    res.json(await withdraw.history(actorOf(req), parse(idParam, req.params.userId)));
  });
  r.get('/histories', handlers, async (req, res) => {
    res.json(await withdraw.histories(actorOf(req)));
  });
  r.get('/histories-per-page', everyone, async (req, res) => {
    const q = parse(withdrawListQuery, req.query);
    res.json(await withdraw.historiesPerPage(actorOf(req), q.page, q.user_id));
  });
  r.put('/update', requireRoles('admin'), async (req, res) => {
    res.json(await withdraw.update(actorOf(req), req.body));
  });
  return r;
}
