import type { Writable } from 'node:stream';

/** The writes waiting for each stream to drain, released together by one pair of listeners. */
const waiting = new WeakMap<Writable, (() => void)[]>();

/**
 * Resolves when `out` drains or closes. One 'drain' and one 'close' listener per stream, added on
 * the first wait and kept: a listener added per wait and taken off after it would stay behind on a
 * compressed answer, whose `on('drain')` goes to the compressor while `off` goes to the response
 * (the compression middleware redirects only `on`), one more for every wait of a long stream.
 */
function drained(out: Writable): Promise<void> {
  let queue = waiting.get(out);
  if (!queue) {
    const q: (() => void)[] = [];
    const release = () => {
      for (const resolve of q.splice(0)) resolve();
    };
    out.on('drain', release);
    out.on('close', release);
    waiting.set(out, q);
    queue = q;
  }
  const q = queue;
  return new Promise<void>((resolve) => q.push(resolve));
}

/**
 * Writes and waits for the stream to drain when its buffer is full, so a large answer never piles
 * up in memory. A stream closed meanwhile (the client went away) ends the wait: 'drain' never comes.
 */
export async function writeChunk(out: Writable, text: string | Buffer): Promise<void> {
  if (out.destroyed) return;
  if (out.write(text)) return;
  await drained(out);
}
