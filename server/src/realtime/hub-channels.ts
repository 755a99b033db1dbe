import type { Logger } from '@wa/core/logger';
import type { EventBus } from '@wa/core/realtime/bus';
import { liveBusChannel } from '@wa/core/realtime/publish';
import { WebSocket } from 'ws';

/** What the channel table needs of a socket: where to send, and who it is in the logs. */
export interface ChannelMember {
  ws: WebSocket;
  userId: number;
  /** messages skipped while its send buffer was over the limit */
  dropped: number;
}

/** One live channel as this process holds it: a bus subscription shared by its sockets. */
export interface Channel {
  name: string;
  /** sockets joined or joining: the bus subscription lives while this is above zero */
  refs: number;
  /** open sockets: the fan-out list */
  sockets: Set<ChannelMember>;
  /** settles once the bus subscription is live */
  ready: Promise<void>;
  off: (() => Promise<void>) | null;
}

/** The live channels this process is subscribed to on the bus. */
export interface ChannelTable {
  /** the channel `name`, subscribed on the bus if it was not, with one more reference */
  acquire(name: string): Channel;
  /** drops a reference; the last one leaves the bus channel */
  release(channel: Channel): void;
  /** channels subscribed */
  size(): number;
  /** open sockets per channel */
  counts(): Record<string, number>;
}

function isLiveMessage(m: unknown): m is { event: string; payload?: unknown } {
  return typeof m === 'object' && m !== null && typeof (m as { event?: unknown }).event === 'string';
}

/**
 * The hub's side of the bus, apart from its sockets' lifecycle: one bus subscription per live
 * channel however many local sockets are in it (counted by reference, left with the last one), and
 * each bus message serialised once and sent to every open socket of the channel, a slow socket
 * skipping messages rather than growing the heap. `track` receives each unsubscription, so the
 * hub's close can wait for them.
 */
export function channelTable(deps: {
  bus: EventBus;
  log?: Logger;
  maxBuffered: number;
  track(p: Promise<unknown>): void;
}): ChannelTable {
  const { bus, log, maxBuffered, track } = deps;
  const channels = new Map<string, Channel>();

  /** One serialisation per message, shared by every socket of the channel. */
  function deliver(channel: Channel, message: unknown): void {
    if (channel.sockets.size === 0) return;
    if (!isLiveMessage(message)) {
      log?.warn({ channel: channel.name }, 'realtime: ignored a bus message without an event');
      return;
    }
    const data = Buffer.from(JSON.stringify({ event: message.event, payload: message.payload ?? {} }));
    for (const client of channel.sockets) {
      const ws = client.ws;
      if (ws.readyState !== WebSocket.OPEN) continue;
      if (ws.bufferedAmount > maxBuffered) {
        if (client.dropped++ === 0) {
          log?.warn({ userId: client.userId, buffered: ws.bufferedAmount }, 'realtime: slow socket, skipping messages');
        }
        continue;
      }
      // a Buffer is framed without a copy; binary: false keeps it a text frame
      ws.send(data, { binary: false });
    }
  }

  function acquire(name: string): Channel {
    let channel = channels.get(name);
    if (!channel) {
      const created: Channel = { name, refs: 0, sockets: new Set(), off: null, ready: Promise.resolve() };
      created.ready = bus
        .subscribe(liveBusChannel(name), (m) => deliver(created, m))
        .then(
          (off) => {
            created.off = off;
          },
          (err) => {
            if (channels.get(name) === created) channels.delete(name);
            throw err;
          },
        );
      channels.set(name, created);
      channel = created;
    }
    channel.refs += 1;
    return channel;
  }

  function release(channel: Channel): void {
    channel.refs -= 1;
    if (channel.refs > 0) return;
    if (channels.get(channel.name) === channel) channels.delete(channel.name);
    track(
      channel.ready
        .then(() => channel.off?.())
        .catch((err) => log?.warn({ err, channel: channel.name }, 'realtime: bus unsubscribe failed')),
    );
  }

  return {
    acquire,
    release,
    size: () => channels.size,
    counts: () => Object.fromEntries([...channels.values()].map((c) => [c.name, c.sockets.size])),
  };
}
