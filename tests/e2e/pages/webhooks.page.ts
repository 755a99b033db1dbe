import type { WebhookEvent } from '@wa/shared';
import type { Page } from 'playwright-core';

/** The profile's Webhook section: the add form, the secret shown once, the table and the deliveries dialog. */
export class WebhooksCard {
  constructor(private readonly page: Page) {}

  form() {
    return this.page.getByTestId('webhook-form');
  }

  /** fills the add form: the url, the description, and ticks each of `events` */
  async fill(url: string, events: readonly WebhookEvent[], description = '') {
    const form = this.form();
    await form.locator('input[name=url]').fill(url);
    await form.locator('input[name=description]').fill(description);
    for (const e of events) await form.locator(`input[name="event:${e}"]`).check();
  }

  submit() {
    return this.form().getByRole('button', { name: 'Tambah Webhook' }).click();
  }

  /** the yellow box with the new endpoint's secret */
  secretBox() {
    return this.page.getByTestId('new-webhook');
  }

  secret() {
    return this.page.getByTestId('new-webhook-secret').inputValue();
  }

  /** the endpoints table's row of `url` (not the deliveries dialog's rows) */
  row(url: string) {
    return this.page.locator('[data-testid=webhook-table] tbody tr[data-row]', { hasText: url });
  }

  /** one of a row's action buttons: Pengiriman, Jeda, Lanjutkan, Hapus */
  action(name: string) {
    return this.page.getByRole('button', { name, exact: true });
  }

  dialog() {
    return this.page.getByTestId('webhook-deliveries');
  }

  /** the deliveries listed in the dialog (not their open bodies) */
  deliveries() {
    return this.dialog().locator('tbody tr[data-row]');
  }

  /** the bodies opened with "Lihat body" */
  bodies() {
    return this.dialog().locator('tbody tr[data-detail] pre');
  }
}
