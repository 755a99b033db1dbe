import { WITHDRAW } from '@wa/shared';
import { Router } from 'express';
import { actorOf } from '../../http/auth';
import { bind } from '../../http/route';
import type { WithdrawService } from './withdraw.service';

/**
 * §7 Withdraw: /api/admin/withdraw/…, as declared in shared/src/api/withdraw.ts. Members and devs
 * request for themselves; admin, dev and staff see every request; only an admin accepts, rejects
 * or cancels (§2, §6).
 */
export function withdrawRoutes(withdraw: WithdrawService): Router {
  const r = Router();
  bind(r, WITHDRAW.balance, ({ req, params }) => withdraw.balance(actorOf(req), params.userId));
  bind(r, WITHDRAW.income, ({ req, params }) => withdraw.income(actorOf(req), params.userId));
  bind(r, WITHDRAW.totalRequested, ({ req, params }) => withdraw.total(actorOf(req), params.userId, 'requested'));
  bind(r, WITHDRAW.totalAccepted, ({ req, params }) => withdraw.total(actorOf(req), params.userId, 'accepted'));
  bind(r, WITHDRAW.request, ({ req, body }) => withdraw.request(actorOf(req), body));
  bind(r, WITHDRAW.history, ({ req, params }) => withdraw.history(actorOf(req), params.userId));
  bind(r, WITHDRAW.histories, ({ req }) => withdraw.histories(actorOf(req)));
  bind(r, WITHDRAW.page, ({ req, query }) => withdraw.historiesPerPage(actorOf(req), query.page, query.user_id));
  bind(r, WITHDRAW.update, ({ req, body }) => withdraw.update(actorOf(req), body));
  return r;
}
