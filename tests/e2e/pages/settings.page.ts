import type { Page } from 'playwright-core';

/** The public-page fields of /settings 'Form Pengaturan' (issue 20). */
export interface PublicTexts {
  terms_text?: string;
  privacy_text?: string;
  support_contact?: string;
  telegram_url?: string;
}

/** /settings: the admin's 'Form Pengaturan'. */
export class SettingsPage {
  constructor(private readonly page: Page) {}

  async open(base: string) {
    await this.page.goto(`${base}/settings`);
    // the form shows once the settings arrived
    await this.page.locator('input[name=bank_names]').waitFor();
  }

  /** Fills the 'Halaman Publik' fields given. */
  async fillPublic(texts: PublicTexts) {
    for (const [name, value] of Object.entries(texts)) {
      if (value !== undefined) await this.page.fill(`[name=${name}]`, value);
    }
  }

  /** Saves and waits for the success dialog, then closes it. */
  async save() {
    await this.page.getByRole('button', { name: 'Simpan' }).click();
    await this.page.getByText('Pengaturan berhasil disimpan.').waitFor();
    await this.page.getByRole('button', { name: 'OK' }).click();
  }

  fieldError(name: string) {
    return this.page.locator(`[data-field-error=${name}]`);
  }
}
