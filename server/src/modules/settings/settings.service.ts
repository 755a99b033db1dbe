import type { settingsBody } from '@wa/shared';
import type { z } from 'zod';
import type { SettingsRepo } from './settings.repo';

export type SettingsInput = z.output<typeof settingsBody>;

/** The global settings (§3 Setting, §5 Settings). */
export class SettingsService {
  constructor(private readonly repo: SettingsRepo) {}

  async get() {
    return { setting: await this.repo.get() };
  }

  /** The public pages' texts and the Telegram link: no sign-in needed, nothing else of the row. */
  getPublic() {
    return this.repo.getPublic();
  }

  async update(input: SettingsInput) {
    return { setting: await this.repo.update(input), msg: 'Pengaturan berhasil disimpan.' };
  }
}
