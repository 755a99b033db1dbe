import { AUTH } from '@wa/shared';
import { type RequestHandler, Router } from 'express';
import { actorOf, bearerToken } from '../../http/auth';
import { bind } from '../../http/route';
import type { UsersService } from '../users/users.service';
import type { AuthService } from './auth.service';

/** §7 Auth: /api/auth/… (public), plus "log out everywhere" for a signed-in user; as declared in shared/src/api/auth.ts. */
export function authRoutes(auth: AuthService, users: UsersService, requireAuth: RequestHandler): Router {
  const r = Router();
  // a limited address hears so before anything about its form
  const canSignUp: RequestHandler = (req, _res, next) => {
    auth.assertCanSignUp(req.ip ?? '');
    next();
  };
  bind(r, AUTH.logoutAll, ({ req }) => users.logoutEverywhere(actorOf(req)), { authenticate: requireAuth });
  bind(r, AUTH.register, ({ body, req }) => auth.register(body, req.ip ?? ''), { before: [canSignUp] });
  bind(r, AUTH.login, ({ body, req }) => auth.login(body, req.ip ?? ''));
  bind(r, AUTH.validate, async ({ body, req, res }) => {
    const result = await auth.validate(bearerToken(req) ?? body.token ?? null);
    res.status(result.status);
    return result.body;
  });
  return r;
}
