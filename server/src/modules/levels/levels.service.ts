import type { Db } from '@wa/core/db/client';
import { notFound } from '@wa/core/errors';
import { pageMeta, pageWindow } from '@wa/core/paging';
import { parse } from '@wa/core/validate';
import { levelBody } from '@wa/shared';
import { LevelsRepo } from './levels.repo';

export const LEVEL_SAVED = 'Level berhasil disimpan.';

/** The rules of levels (§2 level part, §5 Level, §7 Level). */
export class LevelsService {
  private readonly repo: LevelsRepo;

  constructor(db: Db) {
    this.repo = new LevelsRepo(db);
  }

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

  async create(body: unknown) {
    const input = parse(levelBody, body ?? {});
    return { level: await this.repo.insert(input), msg: LEVEL_SAVED };
  }

  async update(id: number, body: unknown) {
    const input = parse(levelBody, body ?? {});
    const level = await this.repo.update(id, input);
    if (!level) throw notFound('Level not found');
    return { level, msg: LEVEL_SAVED };
  }

  async remove(id: number) {
    if (!(await this.repo.delete(id))) throw notFound('Level not found');
    return { id, msg: 'Level berhasil dihapus.' };
  }
}
