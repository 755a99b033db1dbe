import type { LevelDto, levelBody, Paged } from '@wa/shared';
import type { z } from 'zod';
import { call } from '../../api/client';

type LevelInput = z.output<typeof levelBody>;

export const levelsApi = {
  page: (page: number) =>
    call<Paged<LevelDto>>(`/admin/level/list-per-page?page=${page}`, { fallback: 'Error fetching Level list' }),
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
