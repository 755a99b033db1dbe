import { describe, expect, it } from 'vitest';
import { SendError, type WhatsAppSession } from '../drivers/types';
import { watchSession } from './watchdog';

/** A session whose sends answer as the test says: at once, with an error, or never. */
function scripted() {
  const plan: ('ok' | 'hang' | Error)[] = [];
  const answer = async () => {
    const next = plan.shift() ?? 'ok';
    if (next === 'hang') return new Promise<never>(() => {});
    if (next instanceof Error) throw next;
    return { id: 'M1' };
  };
  const session: WhatsAppSession = {
    clientId: 'id-1',
    on: () => () => {},
    start: async () => {},
    getState: async () => 'connected',
    sendText: answer,
    sendMedia: answer,
    isRegistered: async () => {
      const r = await answer();
      return Boolean(r);
    },
    logout: async () => {},
    destroy: async () => {},
  };
  return { session, plan };
}

describe('the stuck-session watchdog', () => {
  it('times a call out as a failed send, and calls a session stuck after N timeouts in a row, once', async () => {
    const { session, plan } = scripted();
    const stuck: number[] = [];
    const watched = watchSession(session, { timeoutMs: 20, stuckAfter: 3, onStuck: (n) => stuck.push(n) });
    plan.push('hang', 'hang', 'hang', 'hang');
    for (let i = 0; i < 2; i++) {
      const err = await watched.sendText('6281', 'x').catch((e) => e);
      expect(err).toBeInstanceOf(SendError);
      expect(err).toMatchObject({
        code: 'failed',
        message: 'sendText timed out after 20 ms: the session does not answer',
      });
    }
    expect(stuck).toEqual([]);
    await expect(watched.isRegistered('6281')).rejects.toMatchObject({ code: 'failed' });
    expect(stuck).toEqual([3]);
    await expect(watched.sendText('6281', 'x')).rejects.toMatchObject({ code: 'failed' });
    expect(stuck).toEqual([3]);
  });

  it('starts counting again after any answer, a refusal too; refusals pass through unchanged', async () => {
    const { session, plan } = scripted();
    const stuck: number[] = [];
    const watched = watchSession(session, { timeoutMs: 20, stuckAfter: 2, onStuck: (n) => stuck.push(n) });
    plan.push('hang', 'ok', 'hang', new SendError('not_registered', 'not on WhatsApp'), 'hang', 'hang');
    await expect(watched.sendText('6281', 'x')).rejects.toMatchObject({ code: 'failed' });
    await expect(watched.sendText('6281', 'x')).resolves.toEqual({ id: 'M1' });
    await expect(watched.sendText('6281', 'x')).rejects.toMatchObject({ code: 'failed' });
    await expect(watched.sendText('6281', 'x')).rejects.toMatchObject({ code: 'not_registered' });
    await expect(watched.sendText('6281', 'x')).rejects.toMatchObject({ code: 'failed' });
    expect(stuck).toEqual([]);
    await expect(watched.sendText('6281', 'x')).rejects.toMatchObject({ code: 'failed' });
    expect(stuck).toEqual([2]);
  });
});
