import { ADMIN_CHANNEL } from '@wa/shared';
import { describe, expect, it } from 'vitest';
import { InProcessBus } from './bus';
import { unhandledRejectionHandler } from './process-errors';
import { liveBusChannel } from './publish';

describe('unhandledRejectionHandler', () => {
  it('logs every rejection and tells admins and devs its message (never its stack), at most once a window', async () => {
    const bus = new InProcessBus();
    const heard: unknown[] = [];
    await bus.subscribe(liveBusChannel(ADMIN_CHANNEL), (m) => heard.push(m));
    const logged: unknown[] = [];
    const handle = unhandledRejectionHandler({ error: (o: unknown) => logged.push(o) } as never, bus, 60_000);
    handle(new Error('pairing timed out'));
    handle(new Error('again'));
    handle('a string reason');
    await expect.poll(() => heard.length).toBe(1);
    expect(heard[0]).toEqual({ event: 'error', payload: { kind: 'unhandledRejection', message: 'pairing timed out' } });
    expect(JSON.stringify(heard[0])).not.toContain('at ');
    expect(logged).toHaveLength(3);
    // a window of 0: each one is told
    const every = unhandledRejectionHandler({ error: () => {} } as never, bus, 0);
    every('x'.repeat(600));
    await expect.poll(() => heard.length).toBe(2);
    expect((heard[1] as { payload: { message: string } }).payload.message).toHaveLength(500);
  });
});
