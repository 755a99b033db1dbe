/** What one socket of the realtime hub may cost: its heartbeat, buffers, count per user and frame budget. */

/** How often sockets are pinged; one that has not answered the previous ping is terminated. */
export const HEARTBEAT_MS = 30_000;
/** A socket whose unsent data exceeds this misses messages instead of growing the heap. */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** Browsers only ever send `ping`; anything big is a misuse. */
export const MAX_INCOMING_BYTES = 4 * 1024;
/**
 * Open sockets one user may hold on one hub process. A dashboard tab holds one socket, so this is
 * ten tabs; one more closes the user's oldest socket (likely a forgotten background tab) rather
 * than refusing the tab just opened. The cap is per process: behind a load balancer a user may
 * hold this many on each API replica; a cap across replicas would need a count in Redis, and one
 * replica's share is what bounds that replica's memory.
 */
export const MAX_SOCKETS_PER_USER = 10;
/**
 * The close code (application range) of a socket pushed out by a newer socket of the same user.
 * The web (`use-live-events.ts`) knows it and does not reconnect at once, so tabs do not take
 * turns evicting each other.
 */
export const CLOSE_TOO_MANY_SOCKETS = 4000;
/**
 * Inbound frames per socket, a token bucket: a burst of FRAME_BURST, refilled at FRAMES_PER_SECOND.
 * The dashboard sends nothing of its own; its browser answers the heartbeat with one pong every
 * HEARTBEAT_MS (30 s), and a client sending a text `ping` every second would still use a fifth of
 * the refill. Text, binary, ping and unasked-for pong frames all count (none is needed at any
 * rate, and each costs the hub work; a ping costs a pong), and past the budget the socket is closed
 * with 1008 without its frame being handled. A frame over MAX_INCOMING_BYTES never gets here: ws
 * closes the socket with 1009 first.
 */
export const FRAME_BURST = 20;
export const FRAMES_PER_SECOND = 5;
/** How long a socket told to close may take to answer the close frame before it is cut (ws waits 30 s). */
export const CLOSE_GRACE_MS = 1000;
