import { isLiveEvent, type LiveEvent, type LiveEventMap, type LiveMessage, type LiveMessageOf } from '@wa/shared';
import { useEffect, useRef, useState } from 'react';
import { useAuth } from '../features/auth/auth-context';
import { BACKOFF_MIN_MS, nextDelay, reconnectAfter } from './live-reconnect';

export interface LiveEvents {
  /** the socket is open */
  connected: boolean;
  /** the last message received (§4 Other: "the latest is kept") */
  latest: LiveMessage | null;
}

/** A handler per live event, each given its event's payload as `LiveEventMap` types it. */
export type LiveHandlers = { [E in LiveEvent]?: (payload: LiveEventMap[E]) => void };

/**
 * A message handler for `useLiveEvents` that hands each message's payload to the handler of its
 * event, for a page that reads a few events and nothing else (the create page's qr, code…).
 */
export function byEvent(handlers: LiveHandlers): (message: LiveMessage) => void {
  return (message) => handOver(handlers, message);
}

function handOver<E extends LiveEvent>(handlers: LiveHandlers, message: LiveMessageOf<E>): void {
  handlers[message.event]?.(message.payload);
}

/**
 * The realtime socket of §7: `/ws?id={userId}&token={jwt}` on the page's own host. Every message is
 * handed to `onMessage` (so none is lost when several arrive in one render) and the latest is kept.
 * A dropped socket reconnects with backoff (see `reconnectAfter` for the hub's own close codes: a
 * tab pushed out by the user's newer tabs waits until it is shown; a socket whose token ended has
 * the token checked, which signs out when it has ended); the socket closes when the component
 * unmounts. The browser sends nothing but its answers to the hub's heartbeat pings.
 *
 * The one place a live message is parsed: the JSON is taken for a `LiveMessage` (the hub relays
 * what the typed senders published), so a handler narrows on `message.event` (and, for an event
 * that tools send too, on `isToolMessage`) and reads its payload typed, or takes `byEvent`.
 */
export function useLiveEvents(onMessage?: (message: LiveMessage) => void): LiveEvents {
  const { user, token, validate } = useAuth();
  const [connected, setConnected] = useState(false);
  const [latest, setLatest] = useState<LiveMessage | null>(null);
  const handler = useRef(onMessage);
  handler.current = onMessage;
  const checkToken = useRef(validate);
  checkToken.current = validate;
  const userId = user?.id;

  useEffect(() => {
    if (!userId || !token) return;
    let ws: WebSocket | null = null;
    let retry: ReturnType<typeof setTimeout> | null = null;
    let delay = BACKOFF_MIN_MS;
    let closed = false;

    const open = () => {
      const url = `${location.origin.replace(/^http/, 'ws')}/ws?id=${userId}&token=${encodeURIComponent(token)}`;
      const socket = new WebSocket(url);
      ws = socket;
      socket.onopen = () => {
        delay = BACKOFF_MIN_MS;
        setConnected(true);
      };
      socket.onmessage = (e) => {
        if (typeof e.data !== 'string' || e.data === 'pong') return;
        let message: LiveMessage;
        try {
          // the wire: the hub relays what the typed senders published (publishLive), payload always set
          message = JSON.parse(e.data) as LiveMessage;
        } catch {
          return;
        }
        // an event this dashboard does not know (a newer server's) reaches no reader typed for another
        if (!isLiveEvent(message?.event)) return;
        setLatest(message);
        handler.current?.(message);
      };
      socket.onerror = () => {
        // §4 Other: an error closes the connection and is logged; onclose schedules the retry
        console.warn('realtime socket error');
        socket.close();
      };
      socket.onclose = (e) => {
        if (ws === socket) ws = null;
        setConnected(false);
        if (closed) return;
        const after = reconnectAfter(e.code, delay, document.visibilityState === 'hidden');
        delay = nextDelay(delay);
        if (after === 'when-shown') document.addEventListener('visibilitychange', onShown);
        else if (after === 'check-token') {
          // an ended token signs out (and this effect ends); a kept session opens again
          void checkToken.current().finally(() => {
            if (!closed) retry = setTimeout(open, delay);
          });
        } else retry = setTimeout(open, after);
      };
    };
    const onShown = () => {
      if (document.visibilityState !== 'visible') return;
      document.removeEventListener('visibilitychange', onShown);
      open();
    };
    open();

    return () => {
      closed = true;
      if (retry) clearTimeout(retry);
      document.removeEventListener('visibilitychange', onShown);
      const socket = ws;
      ws = null;
      if (socket) {
        socket.onmessage = null;
        socket.onerror = null;
        socket.onclose = null;
        // a page that unmounts at once (a guard re-rendering after the token check) would close a
        // socket still connecting, which the browser reports as an error: let it open, then close
        if (socket.readyState === WebSocket.CONNECTING) socket.onopen = () => socket.close();
        else socket.close();
      }
      setConnected(false);
    };
  }, [userId, token]);

  return { connected, latest };
}
