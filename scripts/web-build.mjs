// Builds the dashboard (web/) when web/dist is missing or older than its sources.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const distIndex = path.join(root, 'web/dist/index.html');
const sources = ['web/src', 'web/index.html', 'web/vite.config.ts', 'web/public', 'shared/src'].map((p) =>
  path.join(root, p),
);

function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

/** True when web/dist is missing or any source is newer than it. */
export function isWebStale() {
  if (!existsSync(distIndex)) return true;
  const built = statSync(distIndex).mtimeMs;
  return sources.some((s) => newestMtime(s) > built);
}

/** Runs `vite build` in web/ when the build is stale; returns whether it built. */
export function buildWebIfStale({ quiet = false } = {}) {
  if (!isWebStale()) return false;
  // vite is web/'s dependency: npm may install it under web/node_modules or hoist it to the root
  let vitePkg;
  try {
    vitePkg = createRequire(path.join(root, 'web/package.json')).resolve('vite/package.json');
  } catch {
    // a production install (`npm ci --omit=dev`, the Docker image) has no vite: it serves the
    // dashboard it was given, and says so when there is none
    if (existsSync(distIndex)) {
      if (!quiet) console.warn('web/dist looks older than its sources, but vite is not installed: serving it as it is');
      return false;
    }
    throw new Error('The dashboard is not built (web/dist) and vite is not installed: run npm install, then npm start');
  }
  if (!quiet) console.log('Building the dashboard (web/)…');
  // always the production build: run from the tests (NODE_ENV=test) it bundled React's development
  // build, 200 KB more on every screen (tests/e2e/page-weight.e2e.test.ts measures what users load)
  execFileSync(process.execPath, [path.join(path.dirname(vitePkg), 'bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: path.join(root, 'web'),
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) buildWebIfStale();
