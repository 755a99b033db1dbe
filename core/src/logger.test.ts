import { Writable } from 'node:stream';
import { DrizzleQueryError } from 'drizzle-orm';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { safeErrorSerializer } from './logger';

/** A logger like createLogger's, writing into a string. */
function capture() {
  let out = '';
  const sink = new Writable({
    write(chunk, _enc, done) {
      out += String(chunk);
      done();
    },
  });
  const log = pino({ base: undefined, serializers: { err: safeErrorSerializer } }, sink);
  return { log, text: () => out };
}

const HASH = '$2b$10$abcdefghijklmnopqrstuuVWXYZ0123456789abcdefghijklmnopq';

describe('the error serializer', () => {
  it('logs a failed query without its parameters, in the message, the stack or a field', () => {
    const cause = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
      code: '22021',
      detail: `Failing row contains (1, admin@example.test, ${HASH}).`,
    });
    const err = new DrizzleQueryError('update users set password_hash = $1 where id = $2', [HASH, 7], cause);
    const { log, text } = capture();
    log.error({ err }, 'unexpected error');
    const line = text();
    expect(line).toContain('update users set password_hash = $1');
    expect(line).toContain('22021');
    expect(line).not.toContain(HASH);
    expect(line).not.toContain('abcdefghijklmnopqrstuu');
  });

  it('keeps ordinary errors as pino writes them', () => {
    const { log, text } = capture();
    log.error({ err: new Error('disk full') }, 'x');
    const parsed = JSON.parse(text()) as { err: { message: string; stack: string; type: string } };
    expect(parsed.err).toMatchObject({ message: 'disk full', type: 'Error' });
    expect(parsed.err.stack).toContain('disk full');
  });
});
