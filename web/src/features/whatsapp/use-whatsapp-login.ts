import { type ClientInfo, canOpen, newClientId, normalizeRole } from '@wa/shared';
import QRCode from 'qrcode';
import { type FormEvent, useEffect, useEffectEvent, useReducer } from 'react';
import { useNavigate } from 'react-router';
import { errorText } from '../../api/client';
import { byEvent, useLiveEvents } from '../../api/use-live-events';
import { useAuth } from '../auth/auth-context';
import { whatsappApi } from './api';
import {
  canChooseEngine,
  type EngineChoice,
  initialLogin,
  loginReducer,
  newClientRequest,
  pairingNumber,
  processErrorText,
} from './whatsapp-login';

const qrImage = (qr: string) => QRCode.toDataURL(qr, { margin: 1, width: 264 });

/**
 * The login of /whatsapp/create (§4 Account creation flow): a new device id, a QR code or a
 * pairing code from the worker, and once the socket hears `authenticated` for this device the
 * account is saved and the user goes back. `reconnectId` (?r=) logs an existing account in again;
 * `type` (?type=) returns to the generator or validator list. A login left behind (cancelled,
 * expired, failed, or the page closed) is stopped on its worker.
 */
export function useWhatsappLogin(reconnectId: number | null, type: string | null) {
  const { user } = useAuth();
  const role = normalizeRole(user?.role);
  const chooseEngine = canChooseEngine(role);
  const navigate = useNavigate();
  const [state, dispatch] = useReducer(loginReducer, undefined, () => initialLogin(newClientId()));

  useEffect(() => {
    if (!reconnectId) return;
    whatsappApi
      .get(reconnectId)
      .then(({ whatsapp }) => dispatch({ type: 'previous', account: whatsapp }))
      .catch((err) => dispatch({ type: 'error', text: errorText(err, 'Error fetching WhatsApp list') }));
  }, [reconnectId]);

  const { connected } = useLiveEvents(
    byEvent({
      error: (p) =>
        p.kind === undefined
          ? dispatch({ type: 'socket-error', deviceId: p.deviceId, text: p.message, next: newClientId() })
          : dispatch({ type: 'process-error', text: processErrorText(p) }),
      qr: (p) =>
        void qrImage(p.qr).then((image) => dispatch({ type: 'challenge', id: p.deviceId, qrImage: image, code: null })),
      code: (p) => dispatch({ type: 'challenge', id: p.deviceId, qrImage: null, code: p.code }),
      authenticated: (p) => dispatch({ type: 'authenticated', id: p.deviceId, info: p.clientInfo }),
    }),
  );

  // countdowns: 15 s while generating, then 60 s (QR) or 90 s (pairing code)
  const counting = state.phase === 'generating' || state.phase === 'showing';
  useEffect(() => {
    if (!counting) return;
    const t = setInterval(() => dispatch({ type: 'tick' }), 1000);
    return () => clearInterval(t);
  }, [counting]);
  const ranOut = state.phase === 'showing' && state.seconds === 0;
  useEffect(() => {
    if (ranOut) dispatch({ type: 'expire', next: newClientId() });
  }, [ranOut]);

  // a login that ends unsaved is stopped on its worker, also when the page goes away
  const release = useEffectEvent((id: string) => {
    if (state.saved !== id) void whatsappApi.removeClient(id).catch(() => {});
  });
  const loginId = state.login?.id ?? null;
  useEffect(() => {
    if (!loginId) return;
    return () => release(loginId);
  }, [loginId]);

  // `authenticated` for this login: save the account, then go back where the user came from
  const save = useEffectEvent(async (info: Partial<ClientInfo>) => {
    const { login, previous } = state;
    if (!login) return;
    try {
      await whatsappApi.save({
        clientid: login.id,
        ...info,
        proxyId: login.proxyId ?? undefined,
        user_id: previous?.userId ?? user?.id,
        reconnect: previous?.id ?? reconnectId ?? undefined,
      });
      dispatch({ type: 'saved', id: login.id });
    } catch (err) {
      dispatch({ type: 'failed', id: login.id, text: errorText(err, 'No Data'), next: newClientId() });
    }
  });
  const { authenticated } = state;
  useEffect(() => {
    if (authenticated) void save(authenticated);
  }, [authenticated]);

  const goBack = useEffectEvent(() => {
    const prev = state.previous;
    if (type === 'generator') navigate('/generator/list');
    else if (type === 'validator') navigate('/validator/list');
    else if (prev && user && prev.userId !== user.id && (role === 'admin' || role === 'dev')) {
      navigate(`/member/whatsapp?id=${prev.userId}`);
    } else navigate(role && canOpen(role, '/whatsapp') ? '/whatsapp' : '/');
  });
  const saved = state.saved !== null;
  useEffect(() => {
    if (saved) goBack();
  }, [saved]);

  /** 'Generate QR Code' / 'Generate Pairing Code': new-client, then the first code from the worker. */
  const generate = async (e: FormEvent) => {
    e.preventDefault();
    if (!user || state.phase !== 'idle') return;
    let phoneNumber: string | undefined;
    if (state.mode === 'code') {
      const n = pairingNumber(state.phone);
      if (!n) {
        dispatch({ type: 'phone-invalid' });
        return;
      }
      phoneNumber = n;
    }
    const id = state.deviceId;
    const body = newClientRequest(state, { userId: user.id, phoneNumber, chooseEngine });
    dispatch({ type: 'start' });
    try {
      const created = await whatsappApi.newClient(body);
      dispatch({ type: 'created', id, proxyId: created.proxyId });
      const res = await whatsappApi.qr(id);
      dispatch({ type: 'challenge', id, qrImage: res.qr ? await qrImage(res.qr) : null, code: res.code });
    } catch (err) {
      dispatch({ type: 'failed', id, text: errorText(err, 'Error fetching QR code'), next: newClientId() });
    }
  };

  return {
    state,
    connected,
    generate,
    /** admin and dev: the 'Mesin' choice is shown and sent */
    chooseEngine,
    setMode: (mode: 'qr' | 'code') => dispatch({ type: 'mode', mode }),
    setEngine: (engine: EngineChoice) => dispatch({ type: 'engine', engine }),
    setPhone: (phone: string) => dispatch({ type: 'phone', phone }),
    cancel: () => dispatch({ type: 'cancel', next: newClientId() }),
  };
}

export type WhatsappLogin = ReturnType<typeof useWhatsappLogin>;
