import { randomBytes } from 'node:crypto';
import { BullmqQueue } from '../../core/src/jobs/bullmq-queue';
import { RedisBus } from '../../core/src/realtime/bus';
import { describeBusContract, describeQueueContract } from '../support/infra-contract';

const url = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL;
if (!url) throw new Error('the redis tier needs TEST_REDIS_URL (or REDIS_URL)');

// one key prefix per run, so runs never see each other's jobs or messages
const prefix = `test-${randomBytes(4).toString('hex')}`;
let n = 0;
describeQueueContract('bullmq', (names) => new BullmqQueue(url, { prefix: `${prefix}-${++n}`, names }));
describeBusContract('redis', () => new RedisBus(url, `${prefix}:`));
