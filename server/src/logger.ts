import pino from 'pino';

export type Logger = pino.Logger;

/** The process logger; JSON lines on stdout. */
export function createLogger(level: pino.LevelWithSilent = 'info'): Logger {
  return pino({ level, base: undefined });
}
