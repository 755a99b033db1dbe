/** Job names and payloads shared by the producers (API) and the workers that handle them. */

/** Starts a WhatsApp login (QR or pairing code) on whichever worker takes the job. */
export const OPEN_SESSION_JOB = 'session.open';

export interface OpenSessionJob {
  deviceId: string;
  userId: number;
  pairingNumber?: string | null;
  proxy?: string | null;
}
