import { parse } from '@wa/core/validate';
import { loginBody, registerBody } from '@wa/shared';
import { type RequestHandler, Router } from 'express';
import { actorOf, bearerToken } from '../../http/auth';
import type { UsersService } from '../users/users.service';
import type { AuthService } from './auth.service';

/** §7 Auth: /api/auth/… (public), plus "log out everywhere" for a signed-in user. */
export function authRoutes(auth: AuthService, users: UsersService, requireAuth: RequestHandler): Router {
  const r = Router();
  r.post('/logout-all', requireAuth, async (req, res) => {
    res.json(await users.logoutEverywhere(actorOf(req)));
  });
  r.post('/register', async (req, res) => {
    const ip = req.ip ?? '';
    // a limited address hears so before anything about its form
    auth.assertCanSignUp(ip);
    res.status(201).json(await auth.register(parse(registerBody, req.body ?? {}), ip));
  });
  r.post('/login', async (req, res) => {
    res.json(await auth.login(parse(loginBody, req.body ?? {}), req.ip ?? ''));
  });
  r.post('/validate', async (req, res) => {
    const body = req.body as { token?: unknown } | undefined;
    const token = bearerToken(req) ?? (typeof body?.token === 'string' ? body.token : null);
    const result = await auth.validate(token);
    res.status(result.status).json(result.body);
  });
  return r;
}
