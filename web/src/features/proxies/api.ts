import type { Paged, ProxyDto, saveProxyBody, updateProxyBody } from '@wa/shared';
import type { z } from 'zod';
import { call } from '../../api/client';

export const proxiesApi = {
  page: (page: number) =>
    call<Paged<ProxyDto>>(`/admin/proxy/list-per-page?page=${page}`, { fallback: 'Error fetching Proxy list' }),
  get: (id: number) => call<{ proxy: ProxyDto }>(`/admin/proxy/${id}`, { fallback: 'Error fetching Proxy' }),
  save: (value: z.output<typeof saveProxyBody>['value']) =>
    call<{ proxy: ProxyDto }>('/admin/proxy/save', { method: 'POST', body: { value }, fallback: 'Error saving Proxy' }),
  update: (id: number, body: z.output<typeof updateProxyBody>) =>
    call<{ proxy: ProxyDto }>(`/admin/proxy/${id}`, {
      method: 'PUT',
      body: { id, ...body },
      fallback: 'Error updating Proxy',
    }),
  remove: (id: number) =>
    call<{ id: number }>(`/admin/proxy/${id}`, { method: 'DELETE', fallback: 'Error deleting Proxy' }),
};
