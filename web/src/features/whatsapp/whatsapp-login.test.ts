import { GENERATING_WAIT_S, PAIRING_COUNTDOWN_S, QR_COUNTDOWN_S } from '@wa/shared';
import { describe, expect, it } from 'vitest';
import {
  formatPairingCode,
  initialLogin,
  type LoginAction,
  type LoginState,
  loginReducer,
  PHONE_62_MESSAGE,
  pairingNumber,
  socketError,
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

  it('shows socket errors for this login (ending it) and server-wide ones, not other logins’', () => {
    const s = showing();
    const mine = loginReducer(s, { type: 'socket-error', deviceId: ID, text: 'no room', global: false, next: 'n' });
    expect(mine).toMatchObject({ phase: 'idle', error: 'no room', deviceId: 'n' });
    const global = loginReducer(s, {
      type: 'socket-error',
      deviceId: undefined,
      text: 'down',
      global: true,
      next: 'n',
    });
    expect(global).toMatchObject({ phase: 'showing', error: 'down' });
    expect(loginReducer(s, { type: 'socket-error', deviceId: 'other', text: 'x', global: false, next: 'n' })).toBe(s);
  });

  it('reads the prefix of a socket error (§8)', () => {
    expect(socketError({ type: 'mongoError', message: 'boom' })).toEqual({ text: 'mongo erorr : boom', global: true });
    expect(socketError({ deviceId: ID, msg: 'busy' })).toEqual({ text: 'busy', global: false });
  });

  it('formats the pairing code and checks the pairing number', () => {
    expect(formatPairingCode('ABCD1234')).toBe('ABCD-1234');
    expect(pairingNumber(' 62 812-3456-789 ')).toBe('628123456789');
    expect(pairingNumber('0812345678')).toBeNull();
  });
});
