import { MONITOR } from '@wa/shared';
import { request } from '../../api/client';

/** §7 Dev monitor: each answers `{ data }`. */
export const monitorApi = {
  local: () => request(MONITOR.local, { fallback: 'Error fetching monitor' }),
  remote: (id: string) => request(MONITOR.remote, { query: { id }, fallback: 'Error fetching monitor' }),
  socket: (id: string) => request(MONITOR.socket, { query: { id }, fallback: 'Error fetching monitor' }),
};
