import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { shouldCompress } from './compression';

/** The parts of a request and its answer the filter reads. */
function exchange(type: string, url = '/api/x', headers: Record<string, string> = {}) {
  const req = { headers, originalUrl: url } as unknown as Request;
  const res = { getHeader: (name: string) => (name.toLowerCase() === 'content-type' ? type : undefined) } as Response;
  return [req, res] as const;
}

describe('shouldCompress (issue 23)', () => {
  it('compresses JSON, HTML, scripts and CSV', () => {
    for (const type of [
      'application/json; charset=utf-8',
      'text/html; charset=utf-8',
      'text/javascript; charset=utf-8',
      'text/csv; charset=utf-8',
    ]) {
      expect(shouldCompress(...exchange(type)), type).toBe(true);
    }
  });

  it('leaves Server-Sent Events, byte ranges, stored media and compressed formats as they are', () => {
    expect(shouldCompress(...exchange('text/event-stream'))).toBe(false);
    expect(shouldCompress(...exchange('text/event-stream; charset=utf-8'))).toBe(false);
    expect(shouldCompress(...exchange('application/json', '/api/x', { range: 'bytes=0-9' }))).toBe(false);
    expect(shouldCompress(...exchange('image/svg+xml', '/uploads/templates/a.svg'))).toBe(false);
    for (const type of ['image/png', 'font/woff2', 'video/mp4', 'application/zip']) {
      expect(shouldCompress(...exchange(type)), type).toBe(false);
    }
  });
});
