import { LOGIN_TEXTS } from '@wa/shared';
import { ConnectFailure, type ConnectFailureKind, type ProxyConfig } from './types';

/**
 * Why a session could not reach WhatsApp, read from whatever the driver's stack threw (Node's
 * socket errors, the proxy agents', ws's, Baileys' Boom wrappers, Chromium's `net::ERR_…`), as a
 * ConnectFailure whose message names the cause for the create page. Only short codes reach the
 * message: the raw errors carry the proxy's address, which members must not see.
 */

/**
 * How long a login may take to reach WhatsApp (the proxy's tunnel and WhatsApp's WebSocket, or the
 * first response of WhatsApp Web's page) before it fails as timed out: well inside the 15 s in
 * which qr-new-client must say why, and far beyond a healthy connection's first second.
 */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/** The far end's address could not be found or routed to. */
const UNREACHABLE_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN']);
/** Refused or cut while connecting: by the proxy when there is one, else by WhatsApp's side. */
const REFUSED_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE']);
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT']);

/** Chromium's net errors (whatsapp-web.js's navigation rejects with `net::ERR_…`) that are connection failures. */
const CHROMIUM_ERRORS: Record<string, ConnectFailureKind> = {
  ERR_NAME_NOT_RESOLVED: 'unreachable',
  ERR_NAME_RESOLUTION_FAILED: 'unreachable',
  ERR_INTERNET_DISCONNECTED: 'unreachable',
  ERR_ADDRESS_UNREACHABLE: 'unreachable',
  ERR_NETWORK_CHANGED: 'unreachable',
  ERR_CONNECTION_REFUSED: 'unreachable',
  ERR_CONNECTION_RESET: 'unreachable',
  ERR_CONNECTION_CLOSED: 'unreachable',
  ERR_CONNECTION_FAILED: 'unreachable',
  ERR_EMPTY_RESPONSE: 'unreachable',
  ERR_SOCKS_CONNECTION_HOST_UNREACHABLE: 'unreachable',
  ERR_PROXY_CONNECTION_FAILED: 'proxy_refused',
  ERR_TUNNEL_CONNECTION_FAILED: 'proxy_refused',
  ERR_SOCKS_CONNECTION_FAILED: 'proxy_refused',
  ERR_PROXY_AUTH_UNSUPPORTED: 'proxy_auth',
  ERR_PROXY_AUTH_REQUESTED: 'proxy_auth',
  ERR_PROXY_AUTH_REQUESTED_WITH_NO_CONNECTION: 'proxy_auth',
  ERR_INVALID_AUTH_CREDENTIALS: 'proxy_auth',
  ERR_TIMED_OUT: 'timeout',
  ERR_CONNECTION_TIMED_OUT: 'timeout',
};

/** The message of a failure of `kind` (LOGIN_TEXTS), with the raw error kept as its cause. */
export function connectFailure(
  kind: ConnectFailureKind,
  detail: string,
  proxy: ProxyConfig | null | undefined,
  timeoutMs = DEFAULT_CONNECT_TIMEOUT_MS,
  cause?: unknown,
): ConnectFailure {
  const viaProxy = Boolean(proxy);
  const message =
    kind === 'proxy_auth'
      ? LOGIN_TEXTS.proxyAuth(detail)
      : kind === 'proxy_refused'
        ? LOGIN_TEXTS.proxyRefused(detail)
        : kind === 'timeout'
          ? LOGIN_TEXTS.timedOut(Math.max(1, Math.round(timeoutMs / 1000)), viaProxy)
          : LOGIN_TEXTS.unreachable(detail, viaProxy);
  return new ConnectFailure(kind, message, cause === undefined ? undefined : { cause });
}

/**
 * The ConnectFailure an error stands for, or null when it is no connection failure (a browser that
 * would not launch, a bug). `proxy`: the session's, which decides whose refusal it was.
 */
export function connectFailureOf(
  error: unknown,
  proxy: ProxyConfig | null | undefined,
  timeoutMs = DEFAULT_CONNECT_TIMEOUT_MS,
): ConnectFailure | null {
  if (error instanceof ConnectFailure) return error;
  const found = classify(facts(error), Boolean(proxy));
  return found ? connectFailure(found.kind, found.detail, proxy, timeoutMs, error) : null;
}

interface Facts {
  codes: string[];
  text: string;
}

/** The error codes and messages along an error's chain (`cause`, Boom's `data`, AggregateError's `errors`). */
function facts(error: unknown): Facts {
  const codes: string[] = [];
  const texts: string[] = [];
  const seen = new Set<unknown>();
  let e = error;
  while (e && !seen.has(e) && seen.size < 6) {
    seen.add(e);
    if (typeof e === 'string') {
      texts.push(e);
      break;
    }
    if (typeof e !== 'object') break;
    const o = e as { code?: unknown; message?: unknown; cause?: unknown; data?: unknown; errors?: unknown };
    if (typeof o.code === 'string') codes.push(o.code);
    if (typeof o.message === 'string') texts.push(o.message);
    if (Array.isArray(o.errors)) {
      for (const inner of o.errors as { code?: unknown }[]) if (typeof inner?.code === 'string') codes.push(inner.code);
    }
    e = o.cause ?? o.data;
  }
  return { codes, text: texts.join(' | ') };
}

function classify({ codes, text }: Facts, viaProxy: boolean): { kind: ConnectFailureKind; detail: string } | null {
  const chromium = /net::(ERR_[A-Z_]+)/.exec(text)?.[1];
  if (chromium) {
    const kind = CHROMIUM_ERRORS[chromium];
    return kind ? { kind, detail: chromium } : null;
  }
  // an HTTP proxy's CONNECT answered 407 (ws: "Unexpected server response: 407"), or SOCKS said no
  if (/\b407\b/.test(text)) return { kind: 'proxy_auth', detail: 'HTTP 407' };
  if (/socks5? authentication failed/i.test(text)) return { kind: 'proxy_auth', detail: 'SOCKS authentication' };
  const socks = /socks[45]? proxy rejected connection(?: - (\w+))?/i.exec(text);
  if (socks) return { kind: 'unreachable', detail: `SOCKS ${socks[1] ?? 'rejected'}` };
  const timeout = codes.find((c) => TIMEOUT_CODES.has(c));
  if (timeout || /timed? ?out/i.test(text)) return { kind: 'timeout', detail: timeout ?? 'timed out' };
  const unreachable = codes.find((c) => UNREACHABLE_CODES.has(c));
  if (unreachable) return { kind: 'unreachable', detail: unreachable };
  const refused = codes.find((c) => REFUSED_CODES.has(c));
  if (refused) return viaProxy ? { kind: 'proxy_refused', detail: refused } : { kind: 'unreachable', detail: refused };
  // the proxy (or WhatsApp) answered the upgrade or the CONNECT with another status
  const status = /unexpected server response: (\d{3})/i.exec(text)?.[1];
  if (status) return { kind: viaProxy ? 'proxy_refused' : 'unreachable', detail: `HTTP ${status}` };
  return null;
}
