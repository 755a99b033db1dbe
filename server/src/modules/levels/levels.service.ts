import { notFound } from '@wa/core/errors';
import { pageMeta, pageWindow } from '@wa/core/paging';
import type { levelBody } from '@wa/shared';
import type { z } from 'zod';
import type { LevelsRepo } from './levels.repo';

export const LEVEL_SAVED = 'Level berhasil disimpan.';

export type LevelInput = z.output<typeof levelBody>;

/** The rules of levels (§2 level part, §5 Level, §7 Level). */
export class LevelsService {
  constructor(private readonly repo: LevelsRepo) {}

  async listPerPage(page: number) {
    const { limit, offset } = pageWindow(page);
    const { total, data } = await this.repo.page(limit, offset);
    return { data, meta: pageMeta(page, total) };
  }

  async get(id: number) {
    const level = await this.repo.find(id);
    if (!level) throw notFound('Level not found');
    return { level };
  }

  async create(input: LevelInput) {
    return { level: await this.repo.insert(input), msg: LEVEL_SAVED };
  }

  async update(id: number, input: LevelInput) {
    const level = await this.repo.update(id, input);
    if (!level) throw notFound('Level not found');
    return { level, msg: LEVEL_SAVED };
  }

  async remove(id: number) {
    if (!(await this.repo.delete(id))) throw notFound('Level not found');
    return { id, msg: 'Level berhasil dihapus.' };
  }
}
