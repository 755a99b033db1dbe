import type { Page } from 'playwright-core';

export interface SignUpForm {
  firstName?: string;
  lastName?: string;
  email?: string;
  password?: string;
  password2?: string;
  referral_code?: string;
}

/** The /signup screen. */
export class SignUpPage {
  constructor(private readonly page: Page) {}

  async open(base: string, query = '') {
    await this.page.goto(`${base}/signup${query}`);
  }

  async fill(form: SignUpForm) {
    for (const [name, value] of Object.entries(form)) {
      if (value !== undefined) await this.page.fill(`input[name=${name}]`, value);
    }
  }

  agree() {
    return this.page.check('input[name=agreeToTerms]');
  }

  submit() {
    return this.page.click('button[type=submit]');
  }

  fieldError(name: string) {
    return this.page.locator(`[data-field-error=${name}]`);
  }

  field(name: string) {
    return this.page.locator(`input[name=${name}]`);
  }

  alert() {
    return this.page.getByRole('alert');
  }
}
