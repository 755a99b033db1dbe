import { type MediaFile, SendError, type WhatsAppSession } from '../drivers/types';

/** What the watchdog needs to know: how long a call may take, and how many timeouts in a row mean stuck. */
export interface WatchdogOptions {
  timeoutMs: number;
  stuckAfter: number;
  /** called once when the calls in a row have timed out `stuckAfter` times */
  onStuck(timeouts: number): void;
}

/**
 * A session whose sends and number checks are timed: a client that says connected but no longer
 * answers (a hung browser page, a socket gone quiet) would otherwise hold a blast or a validator
 * forever. A call past `timeoutMs` fails as SendError 'failed' (the blast logs it, nothing is sent
 * again), and `stuckAfter` timeouts in a row with no answer between them (a refusal is an answer) call `onStuck`
 * (the registry rebuilds the session). Everything else passes through.
 */
export function watchSession(session: WhatsAppSession, o: WatchdogOptions): WhatsAppSession {
  let timeouts = 0;
  const timed = async <T>(what: string, call: () => Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new TimedOut(what, o.timeoutMs)), o.timeoutMs);
    });
    try {
      const result = await Promise.race([call(), late]);
      timeouts = 0;
      return result;
    } catch (err) {
      if (!(err instanceof TimedOut)) {
        // an answer, if a refusal: the session is alive
        timeouts = 0;
        throw err;
      }
      timeouts += 1;
      if (timeouts === o.stuckAfter) o.onStuck(timeouts);
      throw new SendError('failed', err.message);
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    clientId: session.clientId,
    on: (listener) => session.on(listener),
    start: () => session.start(),
    getState: () => session.getState(),
    sendText: (to: string, text: string) => timed('sendText', () => session.sendText(to, text)),
    sendMedia: (to: string, media: MediaFile, caption?: string) =>
      timed('sendMedia', () => session.sendMedia(to, media, caption)),
    isRegistered: (number: string) => timed('isRegistered', () => session.isRegistered(number)),
    logout: () => session.logout(),
    destroy: () => session.destroy(),
  };
}

class TimedOut extends Error {
  constructor(what: string, ms: number) {
    super(`${what} timed out after ${ms} ms: the session does not answer`);
  }
}
