import { type BodyIn, LEVELS } from '@wa/shared';
import { request } from '../../api/client';

type LevelInput = BodyIn<typeof LEVELS.create>;

export const levelsApi = {
  page: (page: number) => request(LEVELS.page, { query: { page }, fallback: 'Error fetching Level list' }),
  get: (id: number) => request(LEVELS.get, { params: { id }, fallback: 'Error fetching Level' }),
  create: (body: LevelInput) => request(LEVELS.create, { body, fallback: 'Error saving Level' }),
  update: (id: number, body: LevelInput) =>
    request(LEVELS.update, { params: { id }, body, fallback: 'Error saving Level' }),
  remove: (id: number) => request(LEVELS.remove, { params: { id }, fallback: 'Error deleting Level' }),
};
