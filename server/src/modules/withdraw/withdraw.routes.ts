import { counterUserParam } from '@wa/shared';
import { Router } from 'express';
import { actorOf, requireRoles } from '../../http/auth';
import { parse } from '../../http/validate';
import type { WithdrawService } from './withdraw.service';

/** §7 Withdraw: /api/admin/withdraw/… (roles per route: staff handle requests, members request). */
export function withdrawRoutes(withdraw: WithdrawService): Router {
  const r = Router();

  r.get('/balance/:userId', requireRoles('member', 'admin', 'dev'), async (req, res) => {
    res.json(await withdraw.balance(actorOf(req), parse(counterUserParam, req.params.userId)));
  });
  return r;
}
