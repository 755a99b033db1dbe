import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ByteFile } from './byte-file';

const dir = mkdtempSync(path.join(tmpdir(), 'wa-bytefile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ByteFile', () => {
  it('writes every piece in order across its buffers, multi-byte text and oversized pieces included', async () => {
    const file = new ByteFile(path.join(dir, 'a.txt'));
    const pieces: string[] = [];
    for (let i = 0; i < 60_000; i++) pieces.push(`{"id":${i},"name":"Pelanggan ${i} ✓ é"}\n`);
    pieces.splice(30_000, 0, `${'ü'.repeat(700_000)}\n`); // 1.4 MB: larger than a buffer
    for (const p of pieces) {
      const wait = file.add(p);
      if (wait) await wait;
    }
    await file.close();
    await file.close(); // a second close is harmless
    expect(readFileSync(file.path, 'utf8')).toBe(pieces.join(''));
  });

  it('leaves an empty file when nothing was added', async () => {
    const file = new ByteFile(path.join(dir, 'b.txt'));
    await file.close();
    expect(readFileSync(file.path, 'utf8')).toBe('');
  });
});
