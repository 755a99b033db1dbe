import { loadConfigOrExit } from '@wa/core/config';
import { createLogger } from '@wa/core/logger';
import { unhandledRejectionHandler } from '@wa/core/realtime/process-errors';
import { startWorker } from './worker';

/** `npm run worker`: a job-taking process; SIGTERM lets the jobs in flight finish first. */
async function main() {
  const config = loadConfigOrExit();
  const log = createLogger(config.logLevel);
  let worker: Awaited<ReturnType<typeof startWorker>>;
  try {
    worker = await startWorker(config, log);
  } catch (err) {
    log.fatal({ err }, 'worker did not start');
    process.exit(1);
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'worker stopping');
    worker
      .close()
      .then(() => process.exit(0))
      .catch((err) => {
        log.error({ err }, 'worker did not stop cleanly');
        process.exit(1);
      });
  };
  // a driver's stray promise (whatsapp-web.js pairing, a browser that died) must not end the process
  process.on('unhandledRejection', unhandledRejectionHandler(log, worker.bus));
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

void main();
