import type { MonitorLocal, MonitorRemote, MonitorSocket } from '@wa/shared';
import { call } from '../../api/client';

/** §7 Dev monitor: each answers `{ data }`. */
export const monitorApi = {
  local: () => call<{ data: MonitorLocal }>('/dev/monitor/local', { fallback: 'Error fetching monitor' }),
  remote: (id: string) =>
    call<{ data: MonitorRemote }>(`/dev/monitor/remote?id=${encodeURIComponent(id)}`, {
      fallback: 'Error fetching monitor',
    }),
  socket: (id: string) =>
    call<{ data: MonitorSocket }>(`/dev/monitor/socket?id=${encodeURIComponent(id)}`, {
      fallback: 'Error fetching monitor',
    }),
};
