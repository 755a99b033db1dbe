import { Redis } from 'ioredis';
import pg from 'pg';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { BusDownError, DependencyMonitor, errorText, infraErrorOf, untilReachable } from './dependencies';
import { closedPort } from './testing/ports';

/** A logger whose lines the test reads. */
function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const log = pino({ level: 'debug', base: undefined }, { write: (l: string) => lines.push(JSON.parse(l)) });
  return { log, lines };
}

describe('infraErrorOf: which dependency an error says is down', () => {
  it('names the database for a refused PostgreSQL connection, also when drizzle wraps it', async () => {
    const client = new pg.Client({ host: '127.0.0.1', port: await closedPort(), user: 'x', database: 'x' });
    const err = await client.connect().then(
      () => null,
      (e: unknown) => e,
    );
    expect(infraErrorOf(err)).toBe('database');
    const wrapped = Object.assign(new Error('Failed query: select 1\nparams: secret'), {
      query: 'select 1',
      cause: err,
    });
    expect(infraErrorOf(wrapped)).toBe('database');
    // the owner is told the driver's reason, never the statement or its parameters
    expect(errorText(wrapped)).not.toContain('secret');
    expect(errorText(wrapped)).toContain('ECONNREFUSED');
  });

  it('names the database for a server shutting down, and Redis for the bus and ioredis giving up', async () => {
    expect(infraErrorOf(Object.assign(new Error('terminating connection'), { code: '57P01' }))).toBe('database');
    expect(infraErrorOf(new BusDownError())).toBe('redis');
    // a FATAL error ends the session: the database refused or dropped the connection
    const refused = Object.assign(new Error('database "x" is not currently accepting connections'), {
      severity: 'FATAL',
      code: '55000',
    });
    expect(infraErrorOf(refused)).toBe('database');
    const redis = new Redis({ port: await closedPort(), maxRetriesPerRequest: 0, retryStrategy: () => null });
    redis.on('error', () => {});
    const err = await redis.ping().then(
      () => null,
      (e: unknown) => e,
    );
    redis.disconnect();
    expect(infraErrorOf(err)).toBe('redis');
  });

  it('says nothing is down for an error of the work itself', () => {
    expect(infraErrorOf(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBeNull();
    expect(infraErrorOf(new TypeError('x is undefined'))).toBeNull();
  });
});

describe('DependencyMonitor', () => {
  it('logs an outage once when it begins and once when it ends, however many ask, and wakes the waiters', async () => {
    const { log, lines } = capture();
    let up = false;
    let probes = 0;
    const monitor = new DependencyMonitor(
      {
        database: async () => {
          probes++;
          if (!up) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
        },
      },
      log,
      20,
    );
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const asked = await Promise.all(Array.from({ length: 50 }, () => monitor.classify(refused)));
    expect(new Set(asked)).toEqual(new Set(['database']));
    expect(monitor.waitingFor).toBe('database');
    const waiters = Array.from({ length: 50 }, () => monitor.whenUp());
    // wait for a few probe rounds: they are one at a time for the whole process, not one per waiter
    while (probes < 3) await new Promise((r) => setTimeout(r, 5));
    expect(probes).toBeLessThan(10);
    up = true;
    await Promise.all(waiters);
    expect(monitor.waitingFor).toBeNull();
    const outage = lines.filter((l) => l.dependency === 'database');
    expect(outage.map((l) => l.msg)).toEqual(['database unreachable; waiting for it', 'database reachable again']);
    expect(outage[0]?.cause).toContain('ECONNREFUSED');
    monitor.close();
  });

  it('asks the probes when an error does not say, and finds nothing down for a bug', async () => {
    const { log } = capture();
    const monitor = new DependencyMonitor({ database: async () => {} }, log, 20);
    expect(await monitor.classify(new TypeError('bug'))).toBeNull();
    monitor.close();
  });

  it('ends a wait at once for a caller that stops', async () => {
    const { log } = capture();
    const monitor = new DependencyMonitor(
      {
        database: async () => {
          throw Object.assign(new Error('refused'), { code: 'ECONNREFUSED' });
        },
      },
      log,
      20,
    );
    monitor.markDown('database', new Error('refused'));
    let stopping = false;
    const waiting = monitor.whenUp(() => stopping);
    stopping = true;
    monitor.wakeAll();
    await waiting;
    expect(monitor.waitingFor).toBe('database');
    monitor.close();
  });
});

describe('untilReachable', () => {
  it('waits out a database that is not there yet, saying so once, and throws a real error at once', async () => {
    const { log, lines } = capture();
    let tries = 0;
    const value = await untilReachable(
      'database',
      async () => {
        tries++;
        if (tries < 4) throw Object.assign(new Error('the database system is starting up'), { code: '57P03' });
        return 'open';
      },
      log,
      5,
    );
    expect(value).toBe('open');
    expect(lines.map((l) => l.msg)).toEqual([
      'database unreachable at start; waiting for it',
      'database reachable; starting',
    ]);
    await expect(
      untilReachable(
        'database',
        async () => {
          throw new Error('migration failed: syntax error');
        },
        log,
        5,
      ),
    ).rejects.toThrow('syntax error');
  });
});
