import { DEFAULT_SIM_CONFIG } from '@wa/core/config-engine';
import { describe, expect, it } from 'vitest';
import { createDriver, EngineRouter } from './index';
import { MemorySessionStore } from './session-store';
import type { DriverEvent, Engine, SessionOptions, WhatsAppDriver, WhatsAppSession } from './types';

/** A driver that records the sessions it made and lets a test emit their events. */
function recordingDriver(engine: Engine) {
  const made: { options: SessionOptions; emit(e: DriverEvent): void; started: boolean }[] = [];
  const driver: WhatsAppDriver = {
    name: engine,
    createSession(options) {
      const listeners = new Set<(e: DriverEvent) => void>();
      const emit = (e: DriverEvent) => {
        for (const l of listeners) l(e);
      };
      const entry = { options, emit, started: false };
      made.push(entry);
      const session: WhatsAppSession = {
        clientId: options.clientId,
        on: (l) => {
          listeners.add(l);
          return () => listeners.delete(l);
        },
        start: async () => {
          entry.started = true;
        },
        getState: async () => 'connected',
        sendText: async () => ({ id: `${engine}-1` }),
        sendMedia: async () => ({ id: `${engine}-2` }),
        isRegistered: async () => true,
        logout: async () => {},
        destroy: async () => {},
      };
      return session;
    },
    close: async () => {},
  };
  return { driver, made };
}

describe('engines side by side', () => {
  it("runs each session on its account's engine, loading each engine once; a session from before engines is whatsapp-web.js", async () => {
    const wwebjs = recordingDriver('wwebjs');
    const baileys = recordingDriver('baileys');
    const loads: Engine[] = [];
    const router = new EngineRouter(async (engine) => {
      loads.push(engine);
      return engine === 'baileys' ? baileys.driver : wwebjs.driver;
    });
    const a = router.createSession({ clientId: 'a', engine: 'baileys' });
    const b = router.createSession({ clientId: 'b', engine: null });
    const c = router.createSession({ clientId: 'c', engine: 'baileys' });
    const heard: DriverEvent[] = [];
    a.on((e) => heard.push(e));
    await Promise.all([a.start(), b.start(), c.start()]);
    expect(loads).toEqual(['baileys', 'wwebjs']);
    expect(baileys.made.map((m) => m.options.clientId)).toEqual(['a', 'c']);
    expect(wwebjs.made.map((m) => m.options.clientId)).toEqual(['b']);
    expect(baileys.made[0]?.started).toBe(true);
    baileys.made[0]?.emit({ type: 'state', state: 'disconnected' });
    expect(heard).toEqual([{ type: 'state', state: 'disconnected' }]);
    expect(await a.sendText('6281', 'x')).toEqual({ id: 'baileys-1' });
    expect(await b.sendText('6281', 'x')).toEqual({ id: 'wwebjs-1' });
  });

  it('reports an engine that cannot load when its session starts', async () => {
    const router = new EngineRouter(async () => {
      throw new Error('Cannot find package');
    });
    const s = router.createSession({ clientId: 'a', engine: 'baileys' });
    await expect(s.start()).rejects.toThrow('Cannot find package');
    await expect(s.destroy()).resolves.toBeUndefined();
  });

  it('the simulator stands in for every engine', async () => {
    const driver = await createDriver(
      { waDriver: 'sim', dataDir: '/tmp', chromePath: '', sim: DEFAULT_SIM_CONFIG },
      new MemorySessionStore(),
    );
    expect(driver.name).toBe('sim');
    await driver.close();
  });
});
