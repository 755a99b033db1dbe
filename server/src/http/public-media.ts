import { type FileStore, storedName } from '@wa/core/files/file-store';
import { type Request, type Response, Router } from 'express';

/** An SVG can hold script, so media is served with a policy that runs none. */
export const MEDIA_CSP = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox";

/**
 * GET/HEAD /uploads/templates/<name>: template media from the file store, public (the dashboard's
 * preview and external viewers link them), with the headers express.static gave them when they were
 * files of the API host: the type from the extension, ETag and Last-Modified (a fresh copy is a 304),
 * one byte range (a video seeks), and the sandbox policy. A name the store does not have falls
 * through to the caller's 404.
 */
export function publicMediaRoutes(files: FileStore): Router {
  const r = Router();
  r.get('/:name', async (req: Request<{ name: string }>, res: Response, next) => {
    const name = storedName(req.params.name);
    const file = name === req.params.name ? await files.get('template', name) : null;
    if (!name || !file) return next();
    res.setHeader('Content-Security-Policy', MEDIA_CSP);
    res.setHeader('Cache-Control', 'public, max-age=0');
    res.setHeader('Last-Modified', file.createdAt.toUTCString());
    res.setHeader('Accept-Ranges', 'bytes');
    res.type(name.toLowerCase().endsWith('.svg') ? 'image/svg+xml' : name);
    const ranges = req.headers.range ? req.range(file.size) : undefined;
    if (ranges === -1) {
      res.status(416).setHeader('Content-Range', `bytes */${file.size}`);
      return res.end();
    }
    if (Array.isArray(ranges) && ranges.type === 'bytes' && ranges.length === 1 && ranges[0]) {
      const { start, end } = ranges[0];
      res.status(206).setHeader('Content-Range', `bytes ${start}-${end}/${file.size}`);
      // Node leaves the body out of an answer to HEAD
      return res.end(file.bytes.subarray(start, end + 1));
    }
    // send() adds the ETag and answers 304 to a request that already has this copy
    res.send(file.bytes);
  });
  return r;
}
