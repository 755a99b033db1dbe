import { assertCan } from '@wa/core/policy';
import { parse, requireData } from '@wa/core/validate';
import { idParam, USERS } from '@wa/shared';
import { type RequestHandler, Router } from 'express';
import { actorOf } from '../../http/auth';
import { bind } from '../../http/route';
import type { UsersService } from './users.service';

/**
 * PUT /{id}: a bad id, then an empty body, then somebody else's profile are refused before the
 * form's own errors, as always.
 */
const editable: RequestHandler = (req, _res, next) => {
  const id = parse(idParam, req.params.id);
  requireData(req.body);
  assertCan(actorOf(req), 'user.edit', { userId: id });
  next();
};

/** §7 Users: /api/admin/users/… (mounted behind `authenticate`); as declared in shared/src/api/users.ts. */
export function usersRoutes(
  users: UsersService,
  signFor: (user: { id: number; role: string; tokenVersion: number }) => string,
): Router {
  const r = Router();
  bind(r, USERS.members, ({ req }) => users.members(actorOf(req)));
  bind(r, USERS.membersPerPage, ({ query, req }) =>
    users.membersPerPage(actorOf(req), query.page, query.search, query.status),
  );
  bind(r, USERS.active, ({ req }) => users.activeCount(actorOf(req)));
  bind(r, USERS.referralPerPage, ({ query, req }) => users.referralsPerPage(actorOf(req), query.page, query.userId));
  bind(r, USERS.blastFee, ({ params, req }) => users.blastFee(actorOf(req), params.id));
  bind(r, USERS.get, ({ params, req }) => users.get(actorOf(req), params.id));
  bind(r, USERS.update, ({ params, body, req }) => users.update(actorOf(req), params.id, body, signFor), {
    before: [editable],
  });
  return r;
}
