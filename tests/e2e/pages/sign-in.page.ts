import type { Page } from 'playwright-core';

/** The /signin screen. */
export class SignInPage {
  constructor(private readonly page: Page) {}

  async open(base: string) {
    await this.page.goto(`${base}/signin`);
  }

  async fill(email: string, password: string) {
    await this.page.fill('input[name=email]', email);
    await this.page.fill('input[name=password]', password);
  }

  submit() {
    return this.page.click('button[type=submit]');
  }

  button() {
    return this.page.locator('button[type=submit]');
  }

  alert() {
    return this.page.getByRole('alert');
  }
}
