import { everyKey, type WaEngine } from '@wa/shared';

/** Job names and payloads shared by the producers (API) and the workers that handle them. */

/** Starts a WhatsApp login (QR or pairing code) on whichever worker takes the job. */
export const OPEN_SESSION_JOB = 'session.open';

export interface OpenSessionJob {
  deviceId: string;
  userId: number;
  pairingNumber?: string | null;
  proxy?: string | null;
  /** the engine the login runs on and its account keeps (absent: the simulator, or whatsapp-web.js) */
  engine?: WaEngine | null;
  /** how many full workers handed this login on already (a worker at its cap does not run it) */
  hops?: number;
}

/**
 * A one-off send of the blaster form (send-message/1): the worker that takes it hands it to the
 * holder of the account, which sends to the receivers one by one, `interval` seconds apart.
 */
export const SEND_MESSAGE_JOB = 'whatsapp.send-message';

export interface SendMessageJob {
  /** the job's id, also its row in whatsapp_sends: a job delivered twice sends once */
  sendId: string;
  accountId: number;
  receivers: string[];
  message: string;
  requestedBy: number;
}

/**
 * Posts one webhook delivery (core/src/webhooks): the row says where it stands, so a job that comes
 * twice posts once, and a failed post is queued again with its backoff.
 */
export const WEBHOOK_JOB = 'webhook.deliver';

export interface WebhookJob {
  deliveryId: number;
}

/** Every job name with its payload, so producers and handlers agree on both. */
export interface JobMap {
  [OPEN_SESSION_JOB]: OpenSessionJob;
  [SEND_MESSAGE_JOB]: SendMessageJob;
  [WEBHOOK_JOB]: WebhookJob;
}

/** The names of a job map (`keyof`, as text: queues key jobs by name). */
export type JobName<M extends object = JobMap> = Extract<keyof M, string>;

/** Every job of the product by name: a queue refuses to start while one of them has no handler. */
export const JOB_NAMES: readonly JobName[] = everyKey<JobName>()([OPEN_SESSION_JOB, SEND_MESSAGE_JOB, WEBHOOK_JOB]);
