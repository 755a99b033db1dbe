import { parse } from '@wa/core/validate';
import { bonusListQuery, counterUserParam, createBonusBody, idParam } from '@wa/shared';
import { Router } from 'express';
import { actorOf, allow } from '../../http/auth';
import type { BonusService } from './bonus.service';

/** §7 Bonus: /api/admin/bonus/… (admin and dev give and take back; members read their own). */
export function bonusRoutes(bonus: BonusService): Router {
  const r = Router();
  const give = allow('bonus.give');

  r.get('/total/:userId', allow('counters.read'), async (req, res) => {
    res.json(await bonus.total(actorOf(req), parse(counterUserParam, req.params.userId)));
  });
  r.get('/list-per-page', allow('bonus.read'), async (req, res) => {
    const q = parse(bonusListQuery, req.query);
    res.json(await bonus.listPerPage(actorOf(req), q.page, q.user_id));
  });
  r.post('/create', give, async (req, res) => {
    res.status(201).json(await bonus.create(actorOf(req), parse(createBonusBody, req.body ?? {})));
  });
  r.delete('/:id', give, async (req, res) => {
    res.json(await bonus.remove(actorOf(req), parse(idParam, req.params.id)));
  });
  return r;
}
