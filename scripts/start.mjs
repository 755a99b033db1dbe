// `npm start`: builds the dashboard when it is missing or stale, then runs the API process, which
// serves it (embedded PGlite unless DATABASE_URL is set).
import { register } from 'tsx/esm/api';
import { buildWebIfStale } from './web-build.mjs';

buildWebIfStale();
register();
await import('../app/src/main.ts');
