import type { Writable } from 'node:stream';

/** Writes and waits for the stream to drain when its buffer is full, so a large answer never piles up in memory. */
export async function writeChunk(out: Writable, text: string | Buffer): Promise<void> {
  if (!out.write(text)) await new Promise<void>((r) => out.once('drain', () => r()));
}
