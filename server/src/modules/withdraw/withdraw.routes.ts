import { parse } from '@wa/core/validate';
import { counterUserParam, idParam, withdrawListQuery, withdrawRequestBody, withdrawUpdateBody } from '@wa/shared';
import { Router } from 'express';
import { actorOf, allow } from '../../http/auth';
import type { WithdrawService } from './withdraw.service';

/**
 * §7 Withdraw: /api/admin/withdraw/…. Members and devs request for themselves; admin, dev and
 * staff see every request; only an admin accepts, rejects or cancels (§2, §6).
 */
export function withdrawRoutes(withdraw: WithdrawService): Router {
  const r = Router();
  const counters = allow('counters.read');
  const read = allow('withdraw.read');

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
  r.post('/request', allow('withdraw.request'), async (req, res) => {
    res.status(201).json(await withdraw.request(actorOf(req), parse(withdrawRequestBody, req.body ?? {})));
  });
  r.get('/history/:userId', read, async (req, res) => {
    res.json(await withdraw.history(actorOf(req), parse(idParam, req.params.userId)));
  });
  r.get('/histories', allow('withdraw.handle'), async (req, res) => {
    res.json(await withdraw.histories(actorOf(req)));
  });
  r.get('/histories-per-page', read, async (req, res) => {
    const q = parse(withdrawListQuery, req.query);
    res.json(await withdraw.historiesPerPage(actorOf(req), q.page, q.user_id));
  });
  r.put('/update', allow('withdraw.decide'), async (req, res) => {
    res.json(await withdraw.update(actorOf(req), parse(withdrawUpdateBody, req.body ?? {})));
  });
  return r;
}
