import type { ProxyDto, ProxyStatus } from '@wa/shared';
import { call } from '../../api/client';
import type { PagedResult } from '../../lib/use-list-page';

export const proxiesApi = {
  page: (page: number) =>
    call<PagedResult<ProxyDto>>(`/admin/proxy/list-per-page?page=${page}`, { fallback: 'Error fetching Proxy list' }),
  get: (id: number) => call<{ proxy: ProxyDto }>(`/admin/proxy/${id}`, { fallback: 'Error fetching Proxy' }),
  save: (value: string) =>
    call<{ proxy: ProxyDto }>('/admin/proxy/save', { method: 'POST', body: { value }, fallback: 'Error saving Proxy' }),
  update: (id: number, body: { value: string; status: ProxyStatus }) =>
    call<{ proxy: ProxyDto }>(`/admin/proxy/${id}`, {
      method: 'PUT',
      body: { id, ...body },
      fallback: 'Error updating Proxy',
    }),
  remove: (id: number) =>
    call<{ id: number }>(`/admin/proxy/${id}`, { method: 'DELETE', fallback: 'Error deleting Proxy' }),
};
