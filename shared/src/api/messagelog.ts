import { counterUserParam, incomeResponse, messageLogCount, successFailCount } from '../contract/counters';
import { messageLogListQuery, messageLogPage } from '../contract/report';
import { routes } from './define';

const userId = { userId: counterUserParam };

/**
 * §7 Message log: /admin/messagelog/… (the dashboard counters). Members read their own id; admin
 * and dev any id, or `all` for the global figure.
 */
export const MESSAGE_LOG = routes('messagelog', '/admin/messagelog', {
  list: {
    method: 'get',
    path: '/list-per-page',
    summary: 'A page of the message log',
    access: 'report.read',
    query: messageLogListQuery,
    response: messageLogPage,
  },
  count: {
    method: 'get',
    path: '/count/{userId}',
    summary: 'Messages sent',
    access: 'counters.read',
    params: userId,
    response: messageLogCount,
  },
  todayCount: {
    method: 'get',
    path: '/today-count/{userId}',
    summary: 'Messages sent today',
    access: 'counters.read',
    params: userId,
    response: successFailCount,
  },
  totalCount: {
    method: 'get',
    path: '/total-count/{userId}',
    summary: 'Messages in total',
    access: 'counters.read',
    params: userId,
    response: successFailCount,
  },
  todayIncome: {
    method: 'get',
    path: '/today-income/{userId}',
    summary: "Today's income",
    access: 'counters.read',
    params: userId,
    response: incomeResponse,
  },
});
