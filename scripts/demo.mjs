// `npm run demo`: the embedded stack on the WhatsApp simulator, seeded so a newcomer can try every
// screen without a phone. Data lives in ./data-demo (delete it to start over).
import path from 'node:path';
import { register } from 'tsx/esm/api';
import { buildWebIfStale } from './web-build.mjs';

process.env.WA_DRIVER = 'sim';
process.env.DATA_DIR ??= path.resolve('data-demo');
process.env.SIM_PAIR_DELAY_MS ??= '3000';
delete process.env.REDIS_URL;

buildWebIfStale();
register();
const { seedDemo } = await import('../server/src/demo-seed.ts');
await seedDemo(process.env.DATA_DIR);
await import('../app/src/main.ts');
