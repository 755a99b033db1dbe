import { hostname } from 'node:os';
import { loadConfigOrExit } from '@wa/core/config';
import { checkWorkerHealth } from './health-check';

/**
 * `npm run -s worker:health`: the worker container's healthcheck (docker-compose.yml). Exits 0 when
 * the worker of this container has a live heartbeat, 1 otherwise, and says which on one line.
 */
async function main() {
  const config = loadConfigOrExit();
  if (!config.databaseUrl) {
    // PGlite belongs to the one process that opened it: a second one cannot read the heartbeat
    console.error('unhealthy: the worker health check reads the heartbeat from PostgreSQL; set DATABASE_URL');
    process.exit(1);
  }
  const health = await checkWorkerHealth({ databaseUrl: config.databaseUrl, host: hostname() });
  (health.healthy ? console.log : console.error)(health.message);
  process.exit(health.healthy ? 0 : 1);
}

void main();
