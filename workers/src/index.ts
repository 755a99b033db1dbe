export { OPEN_SESSION_JOB, type OpenSessionJob, SessionHost } from './engine/host';
export { type Engine, startEngine } from './engine/index';
export { parseProxy } from './engine/proxy';
export { type JobContext, registerJobs } from './jobs/registry';
export { type RunningWorker, startWorker } from './worker';
