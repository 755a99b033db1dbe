import {
  chartsQuery,
  createApiKeyBody,
  levelBody,
  loginBody,
  membersQuery,
  messageLogListQuery,
  pageQuery,
  phoneListQuery,
  receiversQuery,
  referralQuery,
  registerBody,
  reportExportQuery,
  reportQuery,
  savePhoneNumberBody,
  saveProxyBody,
  settingsBody,
  updatePhoneNumberBody,
  updateProxyBody,
  updateUserBody,
} from '@wa/shared';
import { z } from 'zod';
import { MORE_ROUTES } from './registry-more';
import { WEBHOOK_ROUTES } from './registry-webhooks';
import { cat, group, id, type RouteDoc, userId } from './route-doc';

export { type Access, type HttpMethod, type RouteDoc, rolesOf } from './route-doc';

/**
 * Every /api route, for the OpenAPI document (issue 13): its method and OpenAPI path (relative to
 * /api), who may call it, and the very zod schemas the route parses. openapi.test.ts walks the
 * Express app and fails on a route missing here, so a new route is documented or the suite is red.
 */
/** The export routes of phone numbers and proxies (their schema is local to the route file). */
const exportQuery = z.object({
  format: z.enum(['csv', 'json'], { error: 'format must be csv or json' }).default('csv'),
});
/** POST /auth/validate reads `token` from the body when no bearer token is sent. */
const validateBody = z.object({ token: z.string().optional() });
const importFile = { name: 'file', required: true, description: 'the file to import' };

export const ROUTES: RouteDoc[] = [
  ...group('health', '/health', [
    { method: 'get', path: '/', summary: 'Which parts are up (200, else 503)', access: 'public' },
  ]),
  ...group('docs', '', [
    { method: 'get', path: '/openapi.json', summary: 'This OpenAPI document', access: 'public' },
    { method: 'get', path: '/docs', summary: 'Swagger UI for this document', access: 'public', produces: 'text/html' },
    {
      method: 'get',
      path: '/docs/init.js',
      summary: "Swagger UI's start-up script",
      access: 'public',
      produces: 'text/javascript',
    },
  ]),
  ...group('auth', '/auth', [
    { method: 'post', path: '/logout-all', summary: 'Log out everywhere (revokes every token)', access: 'signed-in' },
    { method: 'post', path: '/register', summary: 'Sign up', access: 'public', body: registerBody },
    { method: 'post', path: '/login', summary: 'Log in', access: 'public', body: loginBody },
    {
      method: 'post',
      path: '/validate',
      summary: 'Check a token (bearer header, or `token` in the body)',
      access: 'public',
      body: validateBody,
    },
  ]),
  ...group('apikeys', '/admin/apikeys', [
    {
      method: 'post',
      path: '/',
      summary: 'Create an API key (the key is shown once; a dashboard session, not a key)',
      access: 'signed-in',
      body: createApiKeyBody,
    },
    { method: 'get', path: '/', summary: "The caller's live API keys", access: 'signed-in' },
    { method: 'delete', path: '/{id}', summary: 'Revoke an API key', access: 'signed-in', params: id },
  ]),
  ...group('users', '/admin/users', [
    { method: 'get', path: '/members', summary: 'Every member', access: 'users.list' },
    {
      method: 'get',
      path: '/members-per-page',
      summary: 'A page of members',
      access: 'users.list',
      query: membersQuery,
    },
    { method: 'get', path: '/active', summary: 'How many members are active', access: 'users.list' },
    {
      method: 'get',
      path: '/referral-per-page',
      summary: 'A page of referrals',
      access: 'referral.read',
      query: [pageQuery, referralQuery],
    },
    { method: 'get', path: '/blast-fee/{id}', summary: "A user's blast fee", access: 'user.read', params: id },
    { method: 'get', path: '/{id}', summary: 'One user', access: 'user.read', params: id },
    { method: 'put', path: '/{id}', summary: 'Update a user', access: 'user.edit', params: id, body: updateUserBody },
  ]),
  ...group('phone-numbers', '/admin/phonenumber', [
    {
      method: 'get',
      path: '/receivers',
      summary: "The blaster form's receiver choices",
      access: 'receivers.read',
      query: receiversQuery,
    },
    { method: 'get', path: '/list', summary: 'Every phone number (streamed)', access: cat },
    { method: 'get', path: '/list-per-page', summary: 'A page of phone numbers', access: cat, query: phoneListQuery },
    { method: 'get', path: '/count-blast', summary: 'How many numbers may be blasted', access: cat },
    {
      method: 'get',
      path: '/export',
      summary: 'Export every phone number (CSV or JSON download)',
      access: cat,
      query: exportQuery,
      produces: 'text/csv',
    },
    { method: 'post', path: '/save', summary: 'Add a phone number', access: cat, body: savePhoneNumberBody },
    { method: 'post', path: '/import', summary: 'Import phone numbers (CSV or JSON)', access: cat, file: importFile },
    { method: 'get', path: '/{id}', summary: 'One phone number', access: cat, params: id },
    {
      method: 'put',
      path: '/{id}',
      summary: 'Update a phone number',
      access: cat,
      params: id,
      body: updatePhoneNumberBody,
    },
    { method: 'delete', path: '/{id}', summary: 'Delete a phone number', access: cat, params: id },
  ]),
  ...group('proxies', '/admin/proxy', [
    { method: 'get', path: '/list', summary: 'Every proxy', access: cat },
    { method: 'get', path: '/list-per-page', summary: 'A page of proxies', access: cat, query: pageQuery },
    { method: 'get', path: '/count-use', summary: 'How many proxies are in use', access: cat },
    {
      method: 'get',
      path: '/export',
      summary: 'Export every proxy (CSV or JSON download)',
      access: cat,
      query: exportQuery,
      produces: 'text/csv',
    },
    { method: 'post', path: '/save', summary: 'Add a proxy', access: cat, body: saveProxyBody },
    { method: 'post', path: '/import', summary: 'Import proxies (CSV or JSON)', access: cat, file: importFile },
    { method: 'get', path: '/{id}', summary: 'One proxy', access: cat, params: id },
    { method: 'put', path: '/{id}', summary: 'Update a proxy', access: cat, params: id, body: updateProxyBody },
    { method: 'delete', path: '/{id}', summary: 'Delete a proxy', access: cat, params: id },
  ]),
  ...group('levels', '/admin/level', [
    { method: 'get', path: '/list-per-page', summary: 'A page of levels', access: cat, query: pageQuery },
    { method: 'post', path: '/create', summary: 'Create a level', access: cat, body: levelBody },
    { method: 'get', path: '/{id}', summary: 'One level', access: cat, params: id },
    { method: 'put', path: '/{id}', summary: 'Update a level', access: cat, params: id, body: levelBody },
    { method: 'delete', path: '/{id}', summary: 'Delete a level', access: cat, params: id },
  ]),
  ...group('settings', '/admin/setting', [
    { method: 'get', path: '/get', summary: 'The settings (banner, bank list, …)', access: 'settings.read' },
    { method: 'put', path: '/update', summary: 'Update the settings', access: 'settings.update', body: settingsBody },
  ]),
  ...group('messagelog', '/admin/messagelog', [
    {
      method: 'get',
      path: '/list-per-page',
      summary: 'A page of the message log',
      access: 'report.read',
      query: messageLogListQuery,
    },
    { method: 'get', path: '/count/{userId}', summary: 'Messages sent', access: 'counters.read', params: userId },
    {
      method: 'get',
      path: '/today-count/{userId}',
      summary: 'Messages sent today',
      access: 'counters.read',
      params: userId,
    },
    {
      method: 'get',
      path: '/total-count/{userId}',
      summary: 'Messages in total',
      access: 'counters.read',
      params: userId,
    },
    {
      method: 'get',
      path: '/today-income/{userId}',
      summary: "Today's income",
      access: 'counters.read',
      params: userId,
    },
  ]),
  ...group('report', '/admin/report', [
    {
      method: 'get',
      path: '/',
      summary: 'A page of the report, with totals',
      access: 'report.read',
      query: reportQuery,
    },
    {
      method: 'get',
      path: '/export',
      summary: 'Export the report (CSV or JSON download)',
      access: 'report.read',
      query: reportExportQuery,
      produces: 'text/csv',
    },
    { method: 'get', path: '/charts', summary: "The dashboards' charts", access: 'counters.read', query: chartsQuery },
  ]),
  ...WEBHOOK_ROUTES,
  ...MORE_ROUTES,
];
