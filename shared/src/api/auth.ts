import { API_KEY_TEXTS, signedOutEverywhere } from '../contract/apikeys';
import { authResponse, loginBody, registerBody, validateBody, validateResponse } from '../contract/auth';
import { routes } from './define';

/** §7 Auth: /api/auth/… (public), plus "log out everywhere" for a signed-in user. */
export const AUTH = routes('auth', '/auth', {
  logoutAll: {
    method: 'post',
    path: '/logout-all',
    summary: 'Log out everywhere (ends every token and revokes every API key of the user)',
    access: 'signed-in',
    sessionOnly: API_KEY_TEXTS.noSignOutEverywhere,
    response: signedOutEverywhere,
  },
  register: {
    method: 'post',
    path: '/register',
    summary: 'Sign up',
    access: 'public',
    body: registerBody,
    status: 201,
    response: authResponse,
  },
  login: {
    method: 'post',
    path: '/login',
    summary: 'Log in',
    access: 'public',
    body: loginBody,
    response: authResponse,
  },
  validate: {
    method: 'post',
    path: '/validate',
    summary: 'Check a token (bearer header, or `token` in the body)',
    access: 'public',
    body: validateBody,
    response: validateResponse,
    failure: validateResponse,
  },
});
