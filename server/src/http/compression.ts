import compression from 'compression';
import type { Request, RequestHandler, Response } from 'express';

/**
 * Paths whose bytes go out as stored: template media answer byte ranges (a video seeks), and
 * images and videos are compressed already.
 */
const AS_STORED = ['/uploads/'];

/**
 * Whether an answer is compressed: JSON, HTML, scripts, styles, CSV and the other types the
 * `compressible` list names (not images, fonts as woff2 or archives, which are compressed already),
 * except a byte range (its offsets are of the stored bytes), Server-Sent Events (each event must
 * reach the browser when it is written, not when the compressor's buffer fills) and the stored media.
 */
export function shouldCompress(req: Request, res: Response): boolean {
  if (req.headers.range) return false;
  if (AS_STORED.some((p) => req.originalUrl.startsWith(p))) return false;
  if (/^text\/event-stream\b/i.test(String(res.getHeader('Content-Type') ?? ''))) return false;
  return compression.filter(req, res);
}

/**
 * brotli or gzip, as the client's Accept-Encoding prefers (brotli at quality 4, the library's
 * default: about gzip's speed with smaller answers), for answers of 1 KB and more (issue 23).
 * Streamed answers (the phone list, the imports' outcomes, the exports) stay streamed: each write
 * goes through the compressor as it comes, with its backpressure. The WebSocket never passes here
 * (its upgrade is the HTTP server's, not Express's).
 */
export function compress(): RequestHandler {
  return compression({ filter: shouldCompress });
}
