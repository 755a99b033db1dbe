import { close, openSync, write } from 'node:fs';

const SIZE = 1 << 20;

function writeAll(fd: number, buf: Buffer, len: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let off = 0;
    const next = () => {
      if (off >= len) return resolve();
      write(fd, buf, off, len - off, null, (err, n) => {
        if (err) return reject(err);
        off += n;
        next();
      });
    };
    next();
  });
}

/**
 * A file written from strings through two reused 1 MB byte buffers: while one is on its way to the
 * disk the other fills. Nothing is allocated per write, so a million small writes leave no
 * Buffers behind for the garbage collector (a WriteStream fed strings allocated ~100 MB of them
 * per 1M-row import). Await a promise returned by `add` before adding again.
 */
export class ByteFile {
  private readonly fd: number;
  private readonly bufs = [Buffer.allocUnsafe(SIZE), Buffer.allocUnsafe(SIZE)];
  private cur = 0;
  private used = 0;
  private pending: Promise<void> | null = null;
  private closed: Promise<void> | null = null;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'w');
  }

  /** appends text; returns a promise only when the caller must wait for the disk */
  add(text: string): Promise<void> | undefined {
    const buf = this.bufs[this.cur] as Buffer;
    // at most 3 bytes per UTF-16 unit: most writes fit without measuring
    if (this.used + text.length * 3 <= buf.length || this.used + Buffer.byteLength(text) <= buf.length) {
      this.used += buf.write(text, this.used);
      return undefined;
    }
    return this.spill(text);
  }

  private async spill(text: string): Promise<void> {
    await this.flush();
    const bytes = Buffer.byteLength(text);
    if (bytes > SIZE) {
      // larger than a buffer: written on its own (rows are capped far below this)
      await writeAll(this.fd, Buffer.from(text), bytes);
      return;
    }
    this.used += (this.bufs[this.cur] as Buffer).write(text, this.used);
  }

  /** hands the filled buffer to the disk once the other one is free again */
  private async flush(): Promise<void> {
    if (this.pending) await this.pending;
    this.pending = null;
    const len = this.used;
    if (!len) return;
    const full = this.bufs[this.cur] as Buffer;
    this.cur ^= 1;
    this.used = 0;
    this.pending = writeAll(this.fd, full, len);
  }

  /** writes what is left and closes the file; safe to call more than once */
  close(): Promise<void> {
    this.closed ??= (async () => {
      try {
        await this.flush();
        if (this.pending) await this.pending;
      } finally {
        await new Promise<void>((resolve) => close(this.fd, () => resolve()));
      }
    })();
    return this.closed;
  }
}

/**
 * A ByteFile of JSON items separated by commas: the inside of an array, so the merge writes the
 * created rows once, in the answer's own form, and the answer sends the file as it is.
 */
export class ItemFile {
  private readonly file: ByteFile;
  count = 0;
  constructor(readonly path: string) {
    this.file = new ByteFile(path);
  }
  /** appends one item; returns a promise only when the caller must wait for the disk */
  add(item: string): Promise<void> | undefined {
    return this.file.add(this.count++ ? `,${item}` : item);
  }
  close(): Promise<void> {
    return this.file.close();
  }
}
