import { BONUS } from '@wa/shared';
import { Router } from 'express';
import { actorOf } from '../../http/auth';
import { bind } from '../../http/route';
import type { BonusService } from './bonus.service';

/**
 * §7 Bonus: /api/admin/bonus/…, as declared in shared/src/api/bonus.ts (admin and dev give and
 * take back; members read their own).
 */
export function bonusRoutes(bonus: BonusService): Router {
  const r = Router();
  bind(r, BONUS.total, ({ req, params }) => bonus.total(actorOf(req), params.userId));
  bind(r, BONUS.page, ({ req, query }) => bonus.listPerPage(actorOf(req), query.page, query.user_id));
  bind(r, BONUS.create, ({ req, body }) => bonus.create(actorOf(req), body));
  bind(r, BONUS.remove, ({ req, params }) => bonus.remove(actorOf(req), params.id));
  return r;
}
