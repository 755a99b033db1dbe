import type { LiveMessage } from '@wa/shared';
import { useEffect, useRef, useState } from 'react';
import { useAuth } from '../auth/auth-context';

/** Reconnect delays: 1 s doubling up to 30 s, back to 1 s once a socket opens. */
const BACKOFF_MIN_MS = 1_000;
const BACKOFF_MAX_MS = 30_000;

export interface LiveEvents {
  /** the socket is open */
  connected: boolean;
  /** the last message received (§4 Other: "the latest is kept") */
  latest: LiveMessage | null;
}

/**
 * The realtime socket of §7: `/ws?id={userId}&token={jwt}` on the page's own host. Every message is
 * handed to `onMessage` (so none is lost when several arrive in one render) and the latest is kept.
 * A dropped socket reconnects with backoff; the socket closes when the component unmounts.
 */
export function useLiveEvents(onMessage?: (message: LiveMessage) => void): LiveEvents {
  const { user, token } = useAuth();
  const [connected, setConnected] = useState(false);
  const [latest, setLatest] = useState<LiveMessage | null>(null);
  const handler = useRef(onMessage);
  handler.current = onMessage;
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
          message = JSON.parse(e.data) as LiveMessage;
        } catch {
          return;
        }
        if (!message || typeof message.event !== 'string') return;
        message.payload ??= {};
        setLatest(message);
        handler.current?.(message);
      };
      socket.onerror = () => {
        // §4 Other: an error closes the connection and is logged; onclose schedules the retry
        console.warn('realtime socket error');
        socket.close();
      };
      socket.onclose = () => {
        if (ws === socket) ws = null;
        setConnected(false);
        if (closed) return;
        retry = setTimeout(open, delay);
        delay = Math.min(delay * 2, BACKOFF_MAX_MS);
      };
    };
    open();

    return () => {
      closed = true;
      if (retry) clearTimeout(retry);
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
