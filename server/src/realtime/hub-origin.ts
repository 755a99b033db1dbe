import type { IncomingHttpHeaders } from 'node:http';

/**
 * Whether a socket's upgrade may come from where it says it comes from. A browser always sends the
 * page's `Origin` with a WebSocket upgrade, and a page cannot forge it: a page of another site is
 * refused even when it holds a token (cross-site WebSocket hijacking). With PUBLIC_URL the origin
 * must be one of its origins exactly (scheme, host and port); without, the origin's host and port
 * must be the `Host` the request came to, so the dashboard works on whatever address it is served
 * at (a reverse proxy that rewrites `Host` needs PUBLIC_URL). `X-Forwarded-Host` is never read: the
 * client writes it. A request without `Origin` is no browser's (a script, `wscat`): it passes, and
 * its token is checked as any.
 */
export function originAllowed(headers: IncomingHttpHeaders, publicOrigins: readonly string[]): boolean {
  const origin = headers.origin;
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    // "null" (a sandboxed frame, a file:// page) and anything unreadable
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (publicOrigins.length > 0) return publicOrigins.includes(url.origin);
  const host = headers.host?.toLowerCase();
  return host !== undefined && url.host === host;
}
