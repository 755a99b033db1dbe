export { type JobContext, registerJobs } from './jobs/registry';
export { type RunningWorker, startWorker } from './worker';
