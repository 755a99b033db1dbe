import { parse } from '@wa/core/validate';
import { counterUserParam, messageLogListQuery } from '@wa/shared';
import { Router } from 'express';
import { actorOf, allow } from '../../http/auth';
import type { MessageLogService } from './messagelog.service';

/**
 * §7 Message log: /api/admin/messagelog/… (the dashboard counters). Members read their own id;
 * admin and dev any id, or `all` for the global figure.
 */
export function messageLogRoutes(logs: MessageLogService): Router {
  const r = Router();
  const counters = allow('counters.read');

  r.get('/list-per-page', allow('report.read'), async (req, res) => {
    res.json(await logs.list(actorOf(req), parse(messageLogListQuery, req.query)));
  });
  r.get('/count/:userId', counters, async (req, res) => {
    res.json(await logs.count(actorOf(req), parse(counterUserParam, req.params.userId)));
  });
  r.get('/today-count/:userId', counters, async (req, res) => {
    res.json(await logs.todayCount(actorOf(req), parse(counterUserParam, req.params.userId)));
  });
  r.get('/total-count/:userId', counters, async (req, res) => {
    res.json(await logs.totalCount(actorOf(req), parse(counterUserParam, req.params.userId)));
  });
  r.get('/today-income/:userId', counters, async (req, res) => {
    res.json(await logs.todayIncome(actorOf(req), parse(counterUserParam, req.params.userId)));
  });
  return r;
}
