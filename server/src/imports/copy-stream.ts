import type { RawTx } from '@wa/core/db/client';

/** COPY text format: backslash, tab, newline and carriage return are escaped; null is \N. */
export function copyText(v: string | null): string {
  if (v === null) return '\\N';
  return /[\\\t\n\r]/.test(v)
    ? v.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c] ?? c)
    : v;
}

/** One line of COPY text from a leading number and the row's values. */
export function copyLine(first: number, values: readonly (string | null)[]): string {
  let line = String(first);
  for (const v of values) line += `\t${copyText(v)}`;
  return `${line}\n`;
}

/**
 * A COPY … FROM STDIN on PostgreSQL's connection, fed with lines in 256 KB chunks with
 * backpressure. `push` returns a promise only when the caller must wait.
 */
export function copyStream(tx: RawTx & { copyFrom: NonNullable<RawTx['copyFrom']> }, sql: string) {
  const stream = tx.copyFrom(sql);
  let failed: unknown = null;
  stream.on('error', (err) => {
    failed = err;
  });
  let buf = '';
  const flush = async () => {
    if (failed) throw failed;
    const chunk = buf;
    buf = '';
    if (chunk && !stream.write(chunk)) {
      await new Promise<void>((resolve, reject) => {
        stream.once('drain', () => resolve());
        stream.once('error', reject);
      });
    }
  };
  return {
    push(line: string): Promise<void> | undefined {
      buf += line;
      return buf.length > 1 << 18 ? flush() : undefined;
    },
    async end() {
      await flush();
      await new Promise<void>((resolve, reject) => {
        if (failed) return reject(failed);
        stream.once('error', reject);
        stream.once('finish', () => resolve());
        stream.end();
      });
    },
    /** ends the COPY with an error, so the connection leaves COPY mode and can roll back */
    abort(err: Error) {
      if (!stream.destroyed) stream.destroy(err);
    },
  };
}
