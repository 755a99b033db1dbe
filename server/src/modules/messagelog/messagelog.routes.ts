import { MESSAGE_LOG } from '@wa/shared';
import { Router } from 'express';
import { actorOf } from '../../http/auth';
import { bind } from '../../http/route';
import type { MessageLogService } from './messagelog.service';

/**
 * §7 Message log: /api/admin/messagelog/… (the dashboard counters), as declared in
 * shared/src/api/messagelog.ts. Members read their own id; admin and dev any id, or `all` for the
 * global figure.
 */
export function messageLogRoutes(logs: MessageLogService): Router {
  const r = Router();
  bind(r, MESSAGE_LOG.list, ({ req, query }) => logs.list(actorOf(req), query));
  bind(r, MESSAGE_LOG.count, ({ req, params }) => logs.count(actorOf(req), params.userId));
  bind(r, MESSAGE_LOG.todayCount, ({ req, params }) => logs.todayCount(actorOf(req), params.userId));
  bind(r, MESSAGE_LOG.totalCount, ({ req, params }) => logs.totalCount(actorOf(req), params.userId));
  bind(r, MESSAGE_LOG.todayIncome, ({ req, params }) => logs.todayIncome(actorOf(req), params.userId));
  return r;
}
