import type { Writable } from 'node:stream';

/**
 * Writes and waits for the stream to drain when its buffer is full, so a large answer never piles
 * up in memory. A stream closed meanwhile (the client went away) ends the wait: 'drain' never comes.
 */
export async function writeChunk(out: Writable, text: string | Buffer): Promise<void> {
  if (out.destroyed) return;
  if (out.write(text)) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}
