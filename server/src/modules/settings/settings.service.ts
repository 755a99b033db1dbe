import type { Db } from '@wa/core/db/client';
import { parse } from '@wa/core/validate';
import { settingsBody } from '@wa/shared';
import { SettingsRepo } from './settings.repo';

/** The global settings (§3 Setting, §5 Settings). */
export class SettingsService {
  private readonly repo: SettingsRepo;

  constructor(db: Db) {
    this.repo = new SettingsRepo(db);
  }

  async get() {
    return { setting: await this.repo.get() };
  }

  async update(body: unknown) {
    const input = parse(settingsBody, body ?? {});
    return { setting: await this.repo.update(input), msg: 'Pengaturan berhasil disimpan.' };
  }
}
