import type { Ability } from '@wa/core/policy';
import {
  accountIdBody,
  blastBody,
  bonusListQuery,
  createBonusBody,
  deviceIdParam,
  generatorBody,
  idParam,
  intervalBody,
  monitorRemoteQuery,
  monitorSocketQuery,
  newClientBody,
  pageQuery,
  removeClientBody,
  saveWhatsappBody,
  sendMessageBody,
  simCommandBody,
  simDeviceParam,
  statusBody,
  templateFields,
  templateUpdateFields,
  toolIdBody,
  toolListQuery,
  validatorFields,
  whatsappListQuery,
  withdrawListQuery,
  withdrawRequestBody,
  withdrawUpdateBody,
} from '@wa/shared';
import { z } from 'zod';
import { cat, type Entry, group, id, type RouteDoc, userId } from './route-doc';

/** The generator and validator share every route but create, update and the validator's file. */
function tools(kind: 'generator' | 'validator'): RouteDoc[] {
  const a: Ability = 'tool.manage';
  const validator = kind === 'validator';
  const upload = { name: 'file', required: true, description: 'the contact list (csv or json)' };
  return group(kind, `/admin/${kind}`, [
    { method: 'get', path: '/list-per-page', summary: `A page of ${kind}s`, access: a, query: toolListQuery },
    {
      method: 'get',
      path: '/download-result/{id}',
      summary: `The ${kind}'s result`,
      access: a,
      params: id,
    },
    { method: 'post', path: '/start', summary: `Start a ${kind}`, access: a, body: toolIdBody },
    { method: 'post', path: '/stop', summary: `Stop a ${kind}`, access: a, body: toolIdBody },
    validator
      ? {
          method: 'post',
          path: '/create',
          summary: 'Create a validator',
          access: a,
          body: validatorFields,
          file: upload,
        }
      : { method: 'post', path: '/create', summary: 'Create a generator', access: a, body: generatorBody },
    validator
      ? {
          method: 'put',
          path: '/{id}',
          summary: 'Update a validator (a file sent along is dropped)',
          access: a,
          params: id,
          body: validatorFields,
          file: { ...upload, required: false },
        }
      : { method: 'put', path: '/{id}', summary: 'Update a generator', access: a, params: id, body: generatorBody },
    ...(validator
      ? [
          {
            method: 'get',
            path: '/file/{id}',
            summary: "Download the validator's uploaded contact list",
            access: a,
            params: id,
            produces: 'application/octet-stream',
          } satisfies Entry,
        ]
      : []),
    { method: 'get', path: '/{id}', summary: `One ${kind}`, access: a, params: id },
    { method: 'delete', path: '/{id}', summary: `Delete a ${kind}`, access: a, params: id },
  ]);
}

/** GET /admin/whatsapp/list/{userId}: `synced=true|1` lists only synced accounts. */
const syncedQuery = z.object({ synced: z.enum(['true', '1', 'false', '0']).optional() });

/** Money, templates, the tools, WhatsApp accounts and the dev monitor. */
export const MORE_ROUTES: RouteDoc[] = [
  ...group('withdraw', '/admin/withdraw', [
    { method: 'get', path: '/balance/{userId}', summary: 'Balance', access: 'counters.read', params: userId },
    { method: 'get', path: '/income/{userId}', summary: 'Income', access: 'counters.read', params: userId },
    {
      method: 'get',
      path: '/total-requested/{userId}',
      summary: 'Total requested',
      access: 'counters.read',
      params: userId,
    },
    {
      method: 'get',
      path: '/total-accepted/{userId}',
      summary: 'Total accepted',
      access: 'counters.read',
      params: userId,
    },
    {
      method: 'post',
      path: '/request',
      summary: 'Request a withdrawal (for oneself)',
      access: 'withdraw.request',
      body: withdrawRequestBody,
    },
    {
      method: 'get',
      path: '/history/{userId}',
      summary: "A user's withdrawals",
      access: 'withdraw.read',
      params: { userId: idParam },
    },
    { method: 'get', path: '/histories', summary: 'Every withdrawal request', access: 'withdraw.handle' },
    {
      method: 'get',
      path: '/histories-per-page',
      summary: 'A page of withdrawals',
      access: 'withdraw.read',
      query: withdrawListQuery,
    },
    {
      method: 'put',
      path: '/update',
      summary: 'Accept, reject or cancel a withdrawal',
      access: 'withdraw.decide',
      body: withdrawUpdateBody,
    },
  ]),
  ...group('bonus', '/admin/bonus', [
    { method: 'get', path: '/total/{userId}', summary: 'Bonus total', access: 'counters.read', params: userId },
    {
      method: 'get',
      path: '/list-per-page',
      summary: 'A page of bonuses',
      access: 'bonus.read',
      query: bonusListQuery,
    },
    { method: 'post', path: '/create', summary: 'Give a bonus', access: 'bonus.give', body: createBonusBody },
    { method: 'delete', path: '/{id}', summary: 'Take a bonus back', access: 'bonus.give', params: id },
  ]),
  ...group('templates', '/admin/message', [
    { method: 'get', path: '/list', summary: 'Every message template', access: cat },
    { method: 'get', path: '/list-per-page', summary: 'A page of templates', access: cat, query: pageQuery },
    { method: 'get', path: '/export', summary: 'Export the templates (messages.json download)', access: cat },
    {
      method: 'post',
      path: '/create',
      summary: 'Create a template',
      access: cat,
      body: templateFields,
      file: { name: 'file', required: false, description: 'the media' },
    },
    {
      method: 'post',
      path: '/import',
      summary: 'Import templates (JSON)',
      access: cat,
      file: { name: 'file', required: true, description: 'a messages.json export' },
    },
    { method: 'get', path: '/{id}', summary: 'One template', access: cat, params: id },
    {
      method: 'put',
      path: '/{id}',
      summary: 'Update a template',
      access: cat,
      params: id,
      body: templateUpdateFields,
      file: { name: 'file', required: false, description: 'new media' },
    },
    { method: 'delete', path: '/{id}', summary: 'Delete a template', access: cat, params: id },
  ]),
  ...tools('generator'),
  ...tools('validator'),
  ...group('whatsapp', '/admin/whatsapp', [
    {
      method: 'post',
      path: '/new-client',
      summary: 'Start a WhatsApp login',
      access: 'account.create-login',
      body: newClientBody,
    },
    {
      method: 'post',
      path: '/remove-client',
      summary: 'Abandon a login',
      access: 'account.create-login',
      body: removeClientBody,
    },
    {
      method: 'get',
      path: '/qr-new-client/{deviceId}',
      summary: "A login's QR code (waits for it)",
      access: 'account.create-login',
      params: { deviceId: deviceIdParam },
    },
    {
      method: 'get',
      path: '/client-state/{deviceId}',
      summary: "A login's state",
      access: 'account.create-login',
      params: { deviceId: deviceIdParam },
    },
    {
      method: 'get',
      path: '/listen-message-created/{id}',
      summary: "An account's latest message",
      access: 'account.read',
      params: id,
    },
    {
      method: 'post',
      path: '/send-message/1',
      summary: 'Send one-off messages (the blaster form)',
      access: 'account.send',
      body: sendMessageBody,
    },
    {
      method: 'post',
      path: '/save',
      summary: 'Save an authenticated account',
      access: 'account.create-login',
      body: saveWhatsappBody,
    },
    { method: 'get', path: '/list', summary: "Everybody's accounts", access: 'account.list-all' },
    {
      method: 'get',
      path: '/list-per-page',
      summary: 'A page of accounts',
      access: 'account.read',
      query: whatsappListQuery,
    },
    {
      method: 'get',
      path: '/list/{userId}',
      summary: "A user's accounts",
      access: 'account.read',
      params: { userId: idParam },
      query: syncedQuery,
    },
    {
      method: 'get',
      path: '/count/{userId}',
      summary: 'How many accounts a user has',
      access: 'account.read',
      params: userId,
    },
    {
      method: 'put',
      path: '/status',
      summary: 'Set the run status by hand',
      access: 'account.status',
      body: statusBody,
    },
    {
      method: 'put',
      path: '/interval',
      summary: "Set an account's interval",
      access: 'account.edit',
      body: intervalBody,
    },
    {
      method: 'post',
      path: '/reset',
      summary: "Reset an account's counters",
      access: 'account.edit',
      body: accountIdBody,
    },
    {
      method: 'post',
      path: '/lift-pause',
      summary: 'Lift a pause after ban signals',
      access: 'account.lift-pause',
      body: accountIdBody,
    },
    {
      method: 'post',
      path: '/activate',
      summary: 'Lift a suspension',
      access: 'account.activate',
      body: accountIdBody,
    },
    { method: 'post', path: '/start-blasting', summary: 'Start a blast', access: 'account.blast', body: blastBody },
    { method: 'post', path: '/stop-blasting', summary: 'Stop a blast', access: 'account.blast', body: blastBody },
    {
      method: 'post',
      path: '/reconnect',
      summary: 'Reconnect an account',
      access: 'account.reconnect',
      body: accountIdBody,
    },
    { method: 'get', path: '/{id}', summary: 'One account', access: 'account.read', params: id },
  ]),
  ...group('monitor', '/dev/monitor', [
    { method: 'get', path: '/local', summary: "This process's engine and hub", access: 'monitor' },
    { method: 'get', path: '/remote', summary: "A worker's state", access: 'monitor', query: monitorRemoteQuery },
    { method: 'get', path: '/socket', summary: "A socket's state", access: 'monitor', query: monitorSocketQuery },
  ]),
  ...group('monitor', '/dev/sim', [
    {
      method: 'post',
      path: '/{deviceId}',
      summary: 'Drive the simulator (WA_DRIVER=sim)',
      access: 'monitor',
      params: { deviceId: simDeviceParam },
      body: simCommandBody,
    },
  ]),
];
