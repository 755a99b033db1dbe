import { assertCan } from '@wa/core/policy';
import { parse, requireData } from '@wa/core/validate';
import { idParam, membersQuery, pageQuery, referralQuery, updateUserBody } from '@wa/shared';
import { Router } from 'express';
import { actorOf, allow } from '../../http/auth';
import type { UsersService } from './users.service';

/** §7 Users: /api/admin/users/… (mounted behind `authenticate`). */
export function usersRoutes(
  users: UsersService,
  signFor: (user: { id: number; role: string; tokenVersion: number }) => string,
): Router {
  const r = Router();
  const membersList = allow('users.list');

  r.get('/members', membersList, async (req, res) => {
    res.json(await users.members(actorOf(req)));
  });
  r.get('/members-per-page', membersList, async (req, res) => {
    const q = parse(membersQuery, req.query);
    res.json(await users.membersPerPage(actorOf(req), q.page, q.search, q.status));
  });
  r.get('/active', membersList, async (req, res) => {
    res.json(await users.activeCount(actorOf(req)));
  });
  r.get('/referral-per-page', allow('referral.read'), async (req, res) => {
    const { page } = parse(pageQuery, req.query);
    const { userId } = parse(referralQuery, req.query);
    res.json(await users.referralsPerPage(actorOf(req), page, userId));
  });
  r.get('/blast-fee/:id', allow('user.read'), async (req, res) => {
    res.json(await users.blastFee(actorOf(req), parse(idParam, req.params.id)));
  });
  r.get('/:id', allow('user.read'), async (req, res) => {
    res.json(await users.get(actorOf(req), parse(idParam, req.params.id)));
  });
  r.put('/:id', allow('user.edit'), async (req, res) => {
    const actor = actorOf(req);
    const id = parse(idParam, req.params.id);
    // an empty body and somebody else's profile are refused before the form's own errors, as always
    requireData(req.body);
    assertCan(actor, 'user.edit', { userId: id });
    res.json(await users.update(actor, id, parse(updateUserBody, req.body), signFor));
  });
  return r;
}
