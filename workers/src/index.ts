export { OPEN_SESSION_JOB, type OpenSessionJob, parseProxy, SessionHost } from './engine/host';
export { type Engine, startEngine } from './engine/index';
export { type JobContext, registerJobs } from './jobs/registry';
export { type RunningWorker, startWorker } from './worker';
