import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/**
 * A screen whose code loads when it is first shown (issue 23): `load` imports its module and picks
 * the component (`() => import('./x-page').then((m) => m.XPage)`). The sign-in screen then carries
 * none of the other screens, and a screen's own libraries (the charts, the QR code) come with it.
 */
export function lazyScreen<P extends object>(
  load: () => Promise<ComponentType<P>>,
): LazyExoticComponent<ComponentType<P>> {
  return lazy(async () => ({ default: await load() }));
}

const RELOADED_AT = 'chunk-reload-at';

/**
 * After a new version is deployed, a page opened before it asks for chunks that are gone (their
 * names are hashes of the old code): Vite tells it with `vite:preloadError`. Loading the page again
 * fetches the new index.html (never cached) and the new chunks. At most once a minute, so a chunk
 * that is missing for another reason does not reload in a loop.
 */
export function reloadOnStaleChunks(): void {
  window.addEventListener('vite:preloadError', () => {
    const last = Number(sessionStorage.getItem(RELOADED_AT) ?? 0);
    if (Date.now() - last < 60_000) return;
    sessionStorage.setItem(RELOADED_AT, String(Date.now()));
    window.location.reload();
  });
}
