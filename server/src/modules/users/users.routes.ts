import { parse } from '@wa/core/validate';
import { idParam, membersQuery, pageQuery, referralQuery } from '@wa/shared';
import { Router } from 'express';
import { actorOf, requireRoles } from '../../http/auth';
import type { UsersService } from './users.service';

/** §7 Users: /api/admin/users/… (mounted behind `authenticate`). */
export function usersRoutes(
  users: UsersService,
  signFor: (user: { id: number; role: string; tokenVersion: number }) => string,
): Router {
  const r = Router();
  const staffOnly = requireRoles('admin', 'dev');

  r.get('/members', staffOnly, async (_req, res) => {
    res.json(await users.members());
  });
  r.get('/members-per-page', staffOnly, async (req, res) => {
    const q = parse(membersQuery, req.query);
    res.json(await users.membersPerPage(q.page, q.search, q.status));
  });
  r.get('/active', staffOnly, async (_req, res) => {
    res.json(await users.activeCount());
  });
  r.get('/referral-per-page', requireRoles('admin', 'dev', 'member'), async (req, res) => {
    const { page } = parse(pageQuery, req.query);
    const { userId } = parse(referralQuery, req.query);
    res.json(await users.referralsPerPage(actorOf(req), page, userId));
  });
  r.get('/blast-fee/:id', async (req, res) => {
    res.json(await users.blastFee(actorOf(req), parse(idParam, req.params.id)));
  });
  r.get('/:id', async (req, res) => {
    res.json(await users.get(actorOf(req), parse(idParam, req.params.id)));
  });
  r.put('/:id', async (req, res) => {
    res.json(await users.update(actorOf(req), parse(idParam, req.params.id), req.body, signFor));
  });
  return r;
}
