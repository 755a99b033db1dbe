import pino from 'pino';

export type Logger = pino.Logger;

type Serialized = Record<string, unknown>;

/** Fields of a database error that may carry row values (a failing row holds a password hash). */
const ROW_VALUE_FIELDS = ['detail', 'where', 'params', 'parameters'];

/**
 * pino's error serializer, minus what may hold user data or secrets: a failed query's parameters
 * (drizzle puts them into the message and the stack too) and a database error's row details.
 */
export function safeErrorSerializer(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  const out = pino.stdSerializers.err(err) as unknown as Serialized;
  return scrub(err, out, 0);
}

function scrub(err: Error, out: Serialized, depth: number): Serialized {
  const query = (err as { query?: unknown }).query;
  if (typeof query === 'string' && 'params' in err) {
    // DrizzleQueryError: "Failed query: {sql}\nparams: {values}"
    const safe = `Failed query: ${query}`;
    const header = `${err.name}: ${err.message}`;
    out.message = safe;
    if (typeof out.stack === 'string') {
      out.stack = out.stack.startsWith(header) ? `${err.name}: ${safe}${out.stack.slice(header.length)}` : safe;
    }
  }
  for (const f of ROW_VALUE_FIELDS) delete out[f];
  const cause = (err as { cause?: unknown }).cause;
  if (cause instanceof Error && depth < 5) {
    out.cause = scrub(cause, pino.stdSerializers.err(cause) as unknown as Serialized, depth + 1);
  } else if (cause !== undefined && typeof cause === 'object' && cause !== null) {
    const c: Serialized = { ...(cause as Serialized) };
    for (const f of ROW_VALUE_FIELDS) delete c[f];
    out.cause = c;
  }
  return out;
}

/** The process logger; JSON lines on stdout. Errors are logged without query parameters or row values. */
export function createLogger(level: pino.LevelWithSilent = 'info'): Logger {
  return pino({ level, base: undefined, serializers: { err: safeErrorSerializer } });
}
