import { describeBusContract, describeQueueContract } from '../../../tests/support/infra-contract';
import { InProcessBus } from '../realtime/bus';
import { InProcessQueue } from './queue';

describeQueueContract('memory', () => new InProcessQueue());
describeBusContract('memory', () => new InProcessBus());
