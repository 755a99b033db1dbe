import { counterUserParam } from '@wa/shared';
import { Router } from 'express';
import { actorOf, requireRoles } from '../../http/auth';
import { parse } from '../../http/validate';
import type { BonusService } from './bonus.service';

/** §7 Bonus: /api/admin/bonus/… (roles per route). */
export function bonusRoutes(bonus: BonusService): Router {
  const r = Router();

  r.get('/total/:userId', requireRoles('member', 'admin', 'dev'), async (req, res) => {
    res.json(await bonus.total(actorOf(req), parse(counterUserParam, req.params.userId)));
  });
  return r;
}
