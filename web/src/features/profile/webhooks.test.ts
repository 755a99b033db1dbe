import {
  CAMPAIGN_WEBHOOK_EVENTS,
  type CreatedWebhook,
  WEBHOOK_EVENTS,
  WEBHOOK_TEXTS,
  type WebhookDeliveryDto,
  type WebhookDto,
} from '@wa/shared';
import { describe, expect, it } from 'vitest';
import { formatWhen } from './api-keys';
import {
  createWebhookInput,
  deliveryRow,
  prettyBody,
  statusTone,
  toggleEvent,
  WEBHOOK_UI,
  webhookEventsFor,
  webhookRow,
  withCreatedWebhook,
  withId,
  withUpdatedWebhook,
} from './webhooks';

const dto: WebhookDto = {
  id: 3,
  url: 'https://crm.example.com/hook',
  events: ['message.sent', 'optout'],
  description: 'CRM',
  active: true,
  created_at: '2026-03-05T02:30:00.000Z',
  updated_at: '2026-03-05T02:30:00.000Z',
  last_status: null,
  last_delivery_at: null,
};

const delivery: WebhookDeliveryDto = {
  id: 11,
  event: 'message.sent',
  event_id: '6f1c1f3e-8d7a-4c55-9b0e-2d1f0a3b4c5d',
  status: 'failed',
  attempts: 1,
  response_status: null,
  error: 'connect ECONNREFUSED',
  created_at: '2026-03-05T02:30:00.000Z',
  last_attempt_at: '2026-03-05T02:31:00.000Z',
  next_attempt_at: null,
  delivered_at: null,
  body: '{"id":"6f1c","event":"message.sent","data":{"target":"628123"}}',
};

describe('createWebhookInput', () => {
  it('trims the url, keeps the events in their listed order, and sends a description only when given', () => {
    expect(createWebhookInput({ url: '  https://a.example/h  ', description: '  ', events: ['optout'] })).toEqual({
      ok: true,
      body: { url: 'https://a.example/h', events: ['optout'] },
    });
    expect(
      createWebhookInput({ url: 'http://127.0.0.1:9/h', description: ' CRM ', events: ['optout', 'message.sent'] }),
    ).toEqual({
      ok: true,
      body: { url: 'http://127.0.0.1:9/h', events: ['optout', 'message.sent'], description: 'CRM' },
    });
  });

  it('asks for a url and at least one event', () => {
    expect(createWebhookInput({ url: ' ', description: '', events: [] })).toEqual({
      ok: false,
      errors: { url: 'url is required.', events: 'Choose at least one event.' },
    });
  });

  it('refuses what is not an http(s) address with the server’s message, and a long description', () => {
    for (const url of ['crm.example.com/hook', 'ftp://crm.example.com/hook', 'javascript:alert(1)']) {
      expect(createWebhookInput({ url, description: '', events: ['optout'] })).toEqual({
        ok: false,
        errors: { url: WEBHOOK_TEXTS.badUrl },
      });
    }
    expect(createWebhookInput({ url: 'https://a.example', description: 'x'.repeat(201), events: ['optout'] })).toEqual({
      ok: false,
      errors: { description: 'description must be at most 200 characters.' },
    });
  });
});

describe('toggleEvent', () => {
  it('adds and removes an event, always in the order of WEBHOOK_EVENTS, never twice', () => {
    expect(toggleEvent([], 'optout', true)).toEqual(['optout']);
    expect(toggleEvent(['optout'], 'account.state', true)).toEqual(['account.state', 'optout']);
    expect(toggleEvent(['account.state', 'optout'], 'optout', true)).toEqual(['account.state', 'optout']);
    expect(toggleEvent(['account.state', 'optout'], 'account.state', false)).toEqual(['optout']);
  });
});

describe('statusTone', () => {
  it('colours delivered green, pending yellow, failed red, and none grey', () => {
    expect(statusTone('delivered')).toBe('success');
    expect(statusTone('pending')).toBe('warning');
    expect(statusTone('failed')).toBe('error');
    expect(statusTone(null)).toBe('neutral');
  });
});

describe('webhookRow', () => {
  it('names the state and says there was no delivery yet', () => {
    expect(webhookRow(dto, 'UTC')).toEqual({
      id: 3,
      url: 'https://crm.example.com/hook',
      description: 'CRM',
      events: ['message.sent', 'optout'],
      active: true,
      state: 'Aktif',
      lastStatus: null,
      lastTone: 'neutral',
      lastDelivery: 'Belum ada',
    });
  });

  it('shows a paused endpoint and its latest delivery', () => {
    const row = webhookRow(
      { ...dto, active: false, last_status: 'failed', last_delivery_at: '2026-03-06T10:00:00.000Z' },
      'UTC',
    );
    expect(row.state).toBe(WEBHOOK_UI.paused);
    expect(row.lastStatus).toBe('Gagal');
    expect(row.lastTone).toBe('error');
    expect(row.lastDelivery).toContain('10.00');
  });
});

describe('withCreatedWebhook / withUpdatedWebhook', () => {
  it('puts the new endpoint last and never keeps its secret in the list', () => {
    const created: CreatedWebhook = { ...dto, id: 9, secret: 'whsec_very-secret' };
    const list = withCreatedWebhook([dto], created);
    expect(list.map((w) => w.id)).toEqual([3, 9]);
    expect(list[1]).not.toHaveProperty('secret');
    expect(JSON.stringify(list)).not.toContain('whsec_very-secret');
    expect(withCreatedWebhook([dto], { ...dto, secret: 'whsec_x' })).toHaveLength(1);
  });

  it('replaces the changed endpoint in place', () => {
    const other = { ...dto, id: 4 };
    expect(withUpdatedWebhook([dto, other], { ...dto, active: false })).toEqual([{ ...dto, active: false }, other]);
  });
});

describe('deliveryRow', () => {
  it('reads a failed delivery without an answer, timed by its last attempt, with its body indented', () => {
    expect(deliveryRow(delivery, 'UTC')).toEqual({
      id: 11,
      event: 'message.sent',
      status: 'Gagal',
      tone: 'error',
      attempts: 1,
      http: '-',
      error: 'connect ECONNREFUSED',
      time: formatWhen('2026-03-05T02:31:00.000Z', 'UTC'),
      body: JSON.stringify(JSON.parse(delivery.body), null, 2),
    });
  });

  it('reads a delivered one with its HTTP status and no error, and a pending one not yet tried', () => {
    const done = deliveryRow(
      { ...delivery, status: 'delivered', response_status: 204, error: null, delivered_at: '2026-03-05T03:00:00.000Z' },
      'UTC',
    );
    expect([done.status, done.tone, done.http, done.error]).toEqual(['Terkirim', 'success', '204', '-']);
    expect(done.time).toContain('03.00');
    const waiting = deliveryRow(
      { ...delivery, status: 'pending', attempts: 0, last_attempt_at: null, error: null },
      'UTC',
    );
    expect([waiting.status, waiting.tone, waiting.time]).toEqual([
      'Menunggu',
      'warning',
      formatWhen(delivery.created_at, 'UTC'),
    ]);
  });
});

describe('withId', () => {
  it('adds or drops an id in a new set, and keeps the same set when nothing changes', () => {
    const ids: ReadonlySet<number> = new Set([1]);
    expect([...withId(ids, 2, true)]).toEqual([1, 2]);
    expect([...withId(ids, 1, false)]).toEqual([]);
    expect(withId(ids, 1, true)).toBe(ids);
    expect(withId(ids, 3, false)).toBe(ids);
    expect([...ids]).toEqual([1]);
  });
});

describe('prettyBody', () => {
  it('indents JSON and leaves anything else as it is', () => {
    expect(prettyBody('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(prettyBody('not json')).toBe('not json');
  });
});

describe('webhookEventsFor', () => {
  it('offers a client only campaign events, a member none of them, admins and devs every event', () => {
    expect(webhookEventsFor('client')).toEqual([...CAMPAIGN_WEBHOOK_EVENTS]);
    expect(webhookEventsFor('admin')).toEqual([...WEBHOOK_EVENTS]);
    expect(webhookEventsFor('dev')).toEqual([...WEBHOOK_EVENTS]);
    const member = webhookEventsFor('member');
    expect(member).toContain('withdraw.status');
    for (const e of CAMPAIGN_WEBHOOK_EVENTS) expect(member).not.toContain(e);
  });
});
