import { GENERATING_WAIT_S, newClientBody, PAIRING_COUNTDOWN_S, QR_COUNTDOWN_S, type WhatsappDto } from '@wa/shared';
import { describe, expect, it } from 'vitest';
import {
  canChooseEngine,
  ENGINE_CHOICES,
  engineChoice,
  formatPairingCode,
  initialLogin,
  type LoginAction,
  type LoginState,
  loginReducer,
  newClientRequest,
  PHONE_62_MESSAGE,
  pairingNumber,
  processErrorText,
} from './whatsapp-login';

const ID = 'id-1700000000000-1';
const run = (actions: LoginAction[], from: LoginState = initialLogin(ID)) => actions.reduce(loginReducer, from);
const showing = (mode: 'qr' | 'code' = 'qr') =>
  run([
    { type: 'mode', mode },
    { type: 'start' },
    { type: 'challenge', id: ID, qrImage: mode === 'qr' ? 'data:qr' : null, code: mode === 'code' ? 'ABCD1234' : null },
  ]);

describe('the login of /whatsapp/create (§4 Account creation flow)', () => {
  it('starts a login for the shown device id, waiting 15 s for the first code; a second start changes nothing', () => {
    const s = run([{ type: 'error', text: 'old' }, { type: 'start' }]);
    expect(s).toMatchObject({ phase: 'generating', seconds: GENERATING_WAIT_S, error: null });
    expect(s.login).toEqual({ id: ID, mode: 'qr', proxyId: null });
    expect(loginReducer(s, { type: 'start' })).toBe(s);
  });

  it('shows a QR code for 60 s and a pairing code for 90 s; a new QR keeps the countdown', () => {
    expect(showing('qr')).toMatchObject({ phase: 'showing', seconds: QR_COUNTDOWN_S, qrImage: 'data:qr' });
    expect(showing('code')).toMatchObject({ phase: 'showing', seconds: PAIRING_COUNTDOWN_S, code: 'ABCD1234' });
    const later = run([{ type: 'tick' }, { type: 'challenge', id: ID, qrImage: 'data:qr2', code: null }], showing());
    expect(later).toMatchObject({ phase: 'showing', seconds: QR_COUNTDOWN_S - 1, qrImage: 'data:qr2' });
  });

  it('ignores answers and events about a login that is no longer running', () => {
    const s = run([{ type: 'start' }]);
    expect(loginReducer(s, { type: 'challenge', id: 'id-1700000000000-2', qrImage: 'x', code: null })).toBe(s);
    expect(loginReducer(s, { type: 'created', id: 'id-1700000000000-2', proxyId: 3 })).toBe(s);
    const cancelled = loginReducer(s, { type: 'cancel', next: 'id-1700000000000-9' });
    expect(cancelled).toMatchObject({ phase: 'idle', login: null, deviceId: 'id-1700000000000-9' });
    expect(loginReducer(cancelled, { type: 'failed', id: ID, text: 'late', next: 'x' })).toBe(cancelled);
    expect(loginReducer(cancelled, { type: 'authenticated', id: ID, info: {} })).toBe(cancelled);
  });

  it('counts down and, at 0, offers the generate button again with a new device id', () => {
    let s = showing();
    expect(loginReducer(s, { type: 'expire', next: 'n' })).toBe(s);
    for (let i = 0; i < QR_COUNTDOWN_S + 5; i++) s = loginReducer(s, { type: 'tick' });
    expect(s.seconds).toBe(0);
    expect(loginReducer(s, { type: 'expire', next: 'id-1700000000000-7' })).toMatchObject({
      phase: 'idle',
      expired: true,
      login: null,
      qrImage: null,
      deviceId: 'id-1700000000000-7',
    });
  });

  it('refuses a pairing number without 62, clearing the last error and expiry note', () => {
    const s = run([{ type: 'error', text: 'x' }, { type: 'phone-invalid' }]);
    expect(s).toMatchObject({ phoneError: PHONE_62_MESSAGE, error: null, expired: false, phase: 'idle' });
    expect(loginReducer(s, { type: 'phone', phone: '62812' }).phoneError).toBeNull();
  });

  it('saves on authenticated, keeping the proxy new-client chose; a refused save starts afresh', () => {
    const saving = run(
      [
        { type: 'created', id: ID, proxyId: 5 },
        { type: 'authenticated', id: ID, info: { phonenumber: '6281' } },
      ],
      showing(),
    );
    expect(saving).toMatchObject({ phase: 'saving', authenticated: { phonenumber: '6281' } });
    expect(saving.login?.proxyId).toBe(5);
    expect(loginReducer(saving, { type: 'saved', id: ID })).toMatchObject({ login: null, saved: ID });
    expect(loginReducer(saving, { type: 'failed', id: ID, text: 'No Data', next: 'n' })).toMatchObject({
      phase: 'idle',
      error: 'No Data',
      login: null,
      deviceId: 'n',
    });
  });

  it("shows a socket error of this login (ending it), not other logins'", () => {
    const s = showing();
    const mine = loginReducer(s, { type: 'socket-error', deviceId: ID, text: 'no room', next: 'n' });
    expect(mine).toMatchObject({ phase: 'idle', error: 'no room', deviceId: 'n' });
    expect(loginReducer(s, { type: 'socket-error', deviceId: 'other', text: 'x', next: 'n' })).toBe(s);
  });

  it('shows a process-wide failure with its §8 prefix, whatever login runs, without ending it', () => {
    expect(processErrorText({ kind: 'unhandledRejection', message: 'boom' })).toBe('unhandledRejection : boom');
    expect(processErrorText({ kind: 'uncaughtException', message: 'x' })).toBe('uncaughtException : x');
    expect(processErrorText({ kind: 'mongo', message: 'down' })).toBe('mongo erorr : down');
    const s = showing();
    expect(loginReducer(s, { type: 'process-error', text: 'unhandledRejection : boom' })).toMatchObject({
      phase: s.phase,
      login: s.login,
      error: 'unhandledRejection : boom',
    });
  });

  it('formats the pairing code and checks the pairing number', () => {
    expect(formatPairingCode('ABCD1234')).toBe('ABCD-1234');
    expect(pairingNumber(' 62 812-3456-789 ')).toBe('628123456789');
    expect(pairingNumber('0812345678')).toBeNull();
  });
});

describe("the 'Mesin' choice of /whatsapp/create (admin and dev pick the engine)", () => {
  it('is offered to admin and dev only, in the order shown, starting at the server default', () => {
    expect(canChooseEngine('admin')).toBe(true);
    expect(canChooseEngine('dev')).toBe(true);
    expect(canChooseEngine('member')).toBe(false);
    expect(canChooseEngine('staff')).toBe(false);
    expect(canChooseEngine(null)).toBe(false);
    expect(ENGINE_CHOICES.map((c) => c.label)).toEqual([
      'Bawaan server',
      'whatsapp-web.js (Chromium)',
      'Baileys (tanpa browser)',
    ]);
    expect(initialLogin(ID).engine).toBe('default');
  });

  it('reads a select value, anything unknown being the server default', () => {
    expect(engineChoice('baileys')).toBe('baileys');
    expect(engineChoice('wwebjs')).toBe('wwebjs');
    expect(engineChoice('default')).toBe('default');
    expect(engineChoice('sim')).toBe('default');
  });

  it('is kept from start to the end of the login, and fixed while it runs', () => {
    const s = run([{ type: 'engine', engine: 'baileys' }, { type: 'start' }]);
    expect(s.engine).toBe('baileys');
    expect(loginReducer(s, { type: 'engine', engine: 'wwebjs' })).toBe(s);
    const again = loginReducer(s, { type: 'cancel', next: 'id-1700000000000-9' });
    expect(again).toMatchObject({ phase: 'idle', engine: 'baileys' });
    expect(loginReducer(again, { type: 'engine', engine: 'default' }).engine).toBe('default');
  });

  it('sends `engine` in new-client only when an admin or dev chose one', () => {
    const base = initialLogin(ID);
    const asDefault = newClientRequest(base, { userId: 7, chooseEngine: true });
    expect(asDefault).toEqual({ deviceId: ID, userId: 7, previousDeviceId: undefined, phoneNumber: undefined });
    expect('engine' in asDefault).toBe(false);

    const baileys = { ...base, engine: 'baileys' as const };
    expect(newClientRequest(baileys, { userId: 7, chooseEngine: true }).engine).toBe('baileys');
    expect(newClientRequest({ ...base, engine: 'wwebjs' }, { userId: 7, chooseEngine: true }).engine).toBe('wwebjs');
    // a member or staff never sends it, whatever the state holds (the server would answer 403)
    expect('engine' in newClientRequest(baileys, { userId: 7, chooseEngine: false })).toBe(false);
  });

  it('builds a body the shared contract accepts, for a reconnect by pairing code too', () => {
    const previous = { id: 3, userId: 42, clientid: 'id-1600000000000-5' } as WhatsappDto;
    const body = newClientRequest(
      { deviceId: ID, previous, engine: 'baileys' },
      { userId: 7, phoneNumber: '6281234567', chooseEngine: true },
    );
    expect(body).toEqual({
      deviceId: ID,
      userId: 42,
      previousDeviceId: 'id-1600000000000-5',
      phoneNumber: '6281234567',
      engine: 'baileys',
    });
    expect(newClientBody.parse(JSON.parse(JSON.stringify(body)))).toEqual(body);
    const plain = newClientRequest(initialLogin(ID), { userId: 7, chooseEngine: false });
    expect(newClientBody.parse(JSON.parse(JSON.stringify(plain)))).toEqual({ deviceId: ID, userId: 7 });
  });
});
