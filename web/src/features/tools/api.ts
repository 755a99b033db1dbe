import type { Paged, ToolResultRow } from '@wa/shared';
import type { ToolDto } from './tool-rows';

export interface ToolListQuery {
  page: number;
  /** §6: dev lists without a user filter, admin and staff pass their own id */
  userId?: number;
  search?: string;
}

/** The query of GET …/list-per-page. */
export const listQuery = (q: ToolListQuery) => ({ page: q.page, user_id: q.userId, search: q.search });

/** The §8 fallbacks of the calls both tools share; `name` is 'Generator' or 'Validator'. */
export const toolFallbacks = (name: string) => ({
  page: `Error fetching ${name} list`,
  get: `Error fetching ${name}`,
  remove: `Error deleting ${name}`,
  run: (action: 'start' | 'stop') => (action === 'start' ? `Error starting ${name}` : `Error stopping ${name}`),
  results: `Error fetching ${name} result`,
});

/**
 * The calls both tools share (§7 Generator and validator), under /api/admin/{kind}/…: each tool
 * makes them by its own declarations (generator/api.ts, validator/api.ts).
 */
export interface ToolApi<T extends ToolDto> {
  page(q: ToolListQuery): Promise<Paged<T>>;
  get(id: number): Promise<T>;
  remove(id: number): Promise<{ id: number; msg: string }>;
  /** POST start / stop {id}; a refusal carries the server's text */
  run(action: 'start' | 'stop', id: number): Promise<{ data: T; msg: string }>;
  results(id: number): Promise<ToolResultRow[]>;
}
