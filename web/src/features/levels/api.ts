import type { LevelDto } from '@wa/shared';
import { call } from '../../api/client';
import type { PagedResult } from '../../lib/use-list-page';

type LevelInput = Omit<LevelDto, 'id'>;

export const levelsApi = {
  page: (page: number) =>
    call<PagedResult<LevelDto>>(`/admin/level/list-per-page?page=${page}`, { fallback: 'Error fetching Level list' }),
  get: (id: number) => call<{ level: LevelDto }>(`/admin/level/${id}`, { fallback: 'Error fetching Level' }),
  create: (body: LevelInput) =>
    call<{ level: LevelDto; msg: string }>('/admin/level/create', {
      method: 'POST',
      body,
      fallback: 'Error saving Level',
    }),
  update: (id: number, body: LevelInput) =>
    call<{ level: LevelDto; msg: string }>(`/admin/level/${id}`, {
      method: 'PUT',
      body,
      fallback: 'Error saving Level',
    }),
  remove: (id: number) =>
    call<{ id: number }>(`/admin/level/${id}`, { method: 'DELETE', fallback: 'Error deleting Level' }),
};
