import {
  monitorLocalResponse,
  monitorRemoteQuery,
  monitorRemoteResponse,
  monitorSocketQuery,
  monitorSocketResponse,
} from '../contract/monitor';
import { routes } from './define';

/** §7 Dev monitor: /api/dev/monitor/… (dev only), each answering `{ data }`. */
export const MONITOR = routes('monitor', '/dev/monitor', {
  local: {
    method: 'get',
    path: '/local',
    summary: "This process's engine and hub",
    access: 'monitor',
    response: monitorLocalResponse,
  },
  remote: {
    method: 'get',
    path: '/remote',
    summary: "A worker's state",
    access: 'monitor',
    query: monitorRemoteQuery,
    response: monitorRemoteResponse,
  },
  socket: {
    method: 'get',
    path: '/socket',
    summary: "A socket's state",
    access: 'monitor',
    query: monitorSocketQuery,
    response: monitorSocketResponse,
  },
});
