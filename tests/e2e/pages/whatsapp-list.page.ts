import type { Page } from 'playwright-core';

/**
 * 'Daftar Whatsapp' (/whatsapp): an account is a table row from 768 px, a card below; both carry
 * `data-row` with the account's id and the same cells and buttons.
 */
export class WhatsappListPage {
  constructor(private readonly page: Page) {}

  /** the account's table row or card */
  account(id: number) {
    return this.page.locator(`[data-row="${id}"]`);
  }

  /** the account's table row, only on a wide screen */
  tableRow(id: number) {
    return this.page.locator(`tr[data-row="${id}"]`);
  }

  /** the cards' list, only on a phone */
  cards() {
    return this.page.getByTestId('card-list');
  }

  state(id: number) {
    return this.account(id).getByTestId('wa-state');
  }

  /** 'Hari ini {sent}/{cap}', with 'Limit harian tercapai' at the cap */
  cap(id: number) {
    return this.account(id).getByTestId('wa-cap');
  }

  /** a button of the account by its exact text: 'Start Blast', 'Jadwalkan blast', 'Reconnect'… */
  button(id: number, name: string | RegExp) {
    return this.account(id).getByRole('button', { name, exact: typeof name === 'string' });
  }

  /** the realtime socket is open (the 'Live' dot) */
  live() {
    return this.page.locator('[data-live="on"]').first().waitFor();
  }
}
