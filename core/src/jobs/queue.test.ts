import { describeBusContract, describeQueueContract } from '../../../tests/support/infra-contract';
import { InProcessBus } from '../realtime/bus';
import { InProcessQueue } from './queue';

describeQueueContract('memory', (names) => new InProcessQueue(undefined, names));
describeBusContract('memory', () => new InProcessBus());
