import { firstRunResponse } from '../contract/first-run';
import { routes } from './define';

/** /api/admin/first-run (issue 20): the figures of the admin and dev dashboard's first-run checklist. */
export const FIRST_RUN = routes('first-run', '/admin/first-run', {
  get: {
    method: 'get',
    path: '/',
    summary:
      "The first-run checklist's figures: accounts, target numbers, active templates and blast messages sent, and `done` once all are above 0",
    access: 'first-run.read',
    response: firstRunResponse,
  },
});
