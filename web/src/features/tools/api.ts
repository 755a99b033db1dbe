import type { Paged, ToolResultRow } from '@wa/shared';
import { ApiCallError, call } from '../../api/client';
import type { ToolDto, ToolKind } from './tool-rows';

export interface ToolListQuery {
  page: number;
  /** §6: dev lists without a user filter, admin and staff pass their own id */
  userId?: number;
  search?: string;
}

const qs = (q: Record<string, string | number | undefined>) =>
  Object.entries(q)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');

/** The calls both tools share (§7 Generator and validator), under /api/admin/{kind}/… */
export interface ToolApi<T extends ToolDto> {
  page(q: ToolListQuery): Promise<Paged<T>>;
  get(id: number): Promise<T>;
  remove(id: number): Promise<{ id: number; msg: string }>;
  /** POST start / stop {id}; a refusal carries the server's text */
  run(action: 'start' | 'stop', id: number): Promise<{ data: T; msg: string }>;
  results(id: number): Promise<ToolResultRow[]>;
}

/** The shared calls of one tool; `name` is the §8 spelling ('Generator', 'Validator'). */
export function toolApi<T extends ToolDto>(kind: ToolKind, name: string): ToolApi<T> {
  const base = `/admin/${kind}`;
  return {
    page: (q) =>
      call<Paged<T>>(`${base}/list-per-page?${qs({ page: q.page, user_id: q.userId, search: q.search })}`, {
        fallback: `Error fetching ${name} list`,
      }),
    get: async (id) => {
      const res = await call<Partial<Record<ToolKind, T>>>(`${base}/${id}`, { fallback: `Error fetching ${name}` });
      const dto = res[kind];
      if (!dto) throw new ApiCallError(`Error fetching ${name}`, 0);
      return dto;
    },
    remove: (id) => call(`${base}/${id}`, { method: 'DELETE', fallback: `Error deleting ${name}` }),
    run: (action, id) =>
      call(`${base}/${action}`, {
        method: 'POST',
        body: { id },
        fallback: action === 'start' ? `Error starting ${name}` : `Error stopping ${name}`,
      }),
    results: async (id) => {
      const res = await call<{ list: ToolResultRow[] }>(`${base}/download-result/${id}`, {
        fallback: `Error fetching ${name} result`,
      });
      return res.list ?? [];
    },
  };
}
