import { z } from 'zod';
import { idParam } from './common';
import { DEVICE_ID_PATTERN } from './whatsapp';

/**
 * The dev monitor (§2 Monitor, §7 Dev monitor): GET /dev/monitor/local, /remote?id, /socket?id,
 * each answering `{ data }`. The spec leaves the data open; these are what one process can tell.
 */

/** GET /dev/monitor/remote?id={deviceId}. */
export const monitorRemoteQuery = z.object({
  id: z
    .string({ error: (issue) => (issue.input === undefined ? 'id is required.' : 'id must be text.') })
    .trim()
    .regex(DEVICE_ID_PATTERN, 'id must be a client id like id-{timestamp}-{number}.'),
});

/** GET /dev/monitor/socket?id={userId}. */
export const monitorSocketQuery = z.object({
  id: z
    .unknown()
    .refine((v) => v !== undefined && v !== '', 'id is required.')
    .pipe(idParam),
});

/** GET /dev/monitor/local: the API process that answers. */
export interface MonitorLocal {
  time: string;
  process: {
    pid: number;
    hostname: string;
    node: string;
    platform: string;
    startedAt: string;
    uptimeSeconds: number;
  };
  /** megabytes, one decimal */
  memoryMb: { rss: number; heapUsed: number; heapTotal: number; external: number };
  /** memory: the in-process bus (embedded); redis: Redis pub/sub (scale-out) */
  bus: 'memory' | 'redis';
  queue: 'memory' | 'bullmq' | null;
  /** the sessions this process holds when it runs the engine itself (embedded mode) */
  engine:
    | { embedded: true; workerId: string; size: number; sessions: Record<string, string> }
    | { embedded: false; note: string };
  /** the WebSocket hub of this process: open sockets and sockets per channel */
  hub: { sockets: number; channels: Record<string, number> } | { note: string };
}

/** GET /dev/monitor/remote?id: the account row and what its holder says right now. */
export interface MonitorRemote {
  deviceId: string;
  account: {
    id: number;
    clientid: string;
    user_id: number;
    phonenumber: string | null;
    pushname: string | null;
    state: string | null;
    status: string;
    worker_id: string | null;
    lease_until: string | null;
    lease_active: boolean;
    reconnect: number;
    count_success: number;
    count_fail: number;
    income: number;
    suspended: boolean;
    suspended_count: number;
    updatedAt: string;
  } | null;
  /** the holder's answer to `state`, or null when no worker holds the device */
  holder: { workerId: string | null; state: string | null; info: Record<string, unknown> | null } | null;
  /** why a holder that answered gave no state */
  holderError?: string;
  askedMs: number;
}

/** GET /dev/monitor/socket?id: one user's sockets on this API process. */
export interface MonitorSocket {
  userId: number;
  user: { id: number; email: string; firstname: string; lastname: string; role: string };
  count: number;
  channels: string[];
  sockets: { channels: string[]; connectedSince: string }[];
  /** set when this process runs no hub, or in scale-out where other replicas hold other sockets */
  note?: string;
}

/** The schema of MonitorLocal. */
export const monitorLocal = z.object({
  time: z.string(),
  process: z.object({
    pid: z.number().int(),
    hostname: z.string(),
    node: z.string(),
    platform: z.string(),
    startedAt: z.string(),
    uptimeSeconds: z.number(),
  }),
  memoryMb: z
    .object({ rss: z.number(), heapUsed: z.number(), heapTotal: z.number(), external: z.number() })
    .describe('megabytes, one decimal'),
  bus: z.enum(['memory', 'redis']),
  queue: z.enum(['memory', 'bullmq']).nullable(),
  engine: z.union([
    z.object({
      embedded: z.literal(true),
      workerId: z.string(),
      size: z.number().int(),
      sessions: z.record(z.string(), z.string()),
    }),
    z.object({ embedded: z.literal(false), note: z.string() }),
  ]),
  hub: z.union([
    z.object({ sockets: z.number().int(), channels: z.record(z.string(), z.number().int()) }),
    z.object({ note: z.string() }),
  ]),
});

/** The schema of MonitorRemote. */
export const monitorRemote = z.object({
  deviceId: z.string(),
  account: z
    .object({
      id: z.number().int(),
      clientid: z.string(),
      user_id: z.number().int(),
      phonenumber: z.string().nullable(),
      pushname: z.string().nullable(),
      state: z.string().nullable(),
      status: z.string(),
      worker_id: z.string().nullable(),
      lease_until: z.string().nullable(),
      lease_active: z.boolean(),
      reconnect: z.number().int(),
      count_success: z.number().int(),
      count_fail: z.number().int(),
      income: z.number().int(),
      suspended: z.boolean(),
      suspended_count: z.number().int(),
      updatedAt: z.string(),
    })
    .nullable(),
  holder: z
    .object({
      workerId: z.string().nullable(),
      state: z.string().nullable(),
      info: z.record(z.string(), z.unknown()).nullable(),
    })
    .nullable()
    .describe("the holder's answer to `state`, or null when no worker holds the device"),
  holderError: z.string().optional().describe('why a holder that answered gave no state'),
  askedMs: z.number(),
});

/** The schema of MonitorSocket. */
export const monitorSocket = z.object({
  userId: z.number().int(),
  user: z.object({
    id: z.number().int(),
    email: z.string(),
    firstname: z.string(),
    lastname: z.string(),
    role: z.string(),
  }),
  count: z.number().int(),
  channels: z.array(z.string()),
  sockets: z.array(z.object({ channels: z.array(z.string()), connectedSince: z.string() })),
  note: z.string().optional(),
});

/** GET /dev/monitor/local, /remote and /socket answer `{data}`. */
export const monitorLocalResponse = z.object({ data: monitorLocal });
export const monitorRemoteResponse = z.object({ data: monitorRemote });
export const monitorSocketResponse = z.object({ data: monitorSocket });
