import { firstRunResponse } from '@wa/shared';
import { group, type RouteDoc } from './route-doc';

/**
 * /api/admin/first-run (issue 20): the figures of the admin and dev dashboard's first-run checklist.
 * FirstRunService.get is declared to answer `FirstRunDto`, the z.infer of this response schema.
 */
export const FIRST_RUN_ROUTES: RouteDoc[] = group('first-run', '/admin/first-run', [
  {
    method: 'get',
    path: '/',
    summary:
      "The first-run checklist's figures: accounts, target numbers, active templates and blast messages sent, and `done` once all are above 0",
    access: 'first-run.read',
    response: firstRunResponse,
  },
]);
