import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';

/** The sections of /campaigns/:id, by their accessible names. */
export type CampaignSection = 'Progress' | 'Report' | 'Terms' | 'Top-ups' | 'Variants' | 'Targets' | 'Replies';

/** A download the page started: its suggested name and what it holds. */
export interface Downloaded {
  name: string;
  text: string;
}

/** /campaigns and /campaigns/:id (issue 22). */
export class CampaignPage {
  constructor(private readonly page: Page) {}

  // the list

  newCampaignForm() {
    return this.page.getByTestId('new-campaign-form');
  }

  /** the list's row (a table row or a card) of a campaign */
  listRow(name: string) {
    return this.page.locator('[data-row]').filter({ hasText: name });
  }

  // the campaign

  section(name: CampaignSection): Locator {
    return this.page.getByRole('region', { name, exact: true });
  }

  name() {
    return this.page.getByTestId('campaign-name');
  }

  status() {
    return this.page.getByTestId('campaign-status');
  }

  notFound() {
    return this.page.getByTestId('campaign-not-found');
  }

  /** the move buttons the viewer is offered (submit, approve, pause, …, delete) */
  moves() {
    return this.page.getByTestId('campaign-moves').getByRole('button').allInnerTexts();
  }

  move(label: string) {
    return this.page.getByTestId('campaign-moves').getByRole('button', { name: label, exact: true }).click();
  }

  stat(key: string) {
    return this.page.getByTestId(`stat-${key}-value`);
  }

  budget(key: 'messages' | 'amount') {
    return this.page.getByTestId(`budget-${key}`);
  }

  reportHeaders() {
    return this.section('Report').locator('thead th').allInnerTexts();
  }

  reportTotal(key: string) {
    return this.section('Report').locator(`[data-total="${key}"]`);
  }

  variantRows() {
    return this.section('Variants').locator('[data-row]');
  }

  /** types a caption into the variant form and adds the variant with `weight` */
  async addVariant(caption: string, weight: number) {
    const form = this.page.getByTestId('variant-form');
    await form.getByTestId('caption-editor').click();
    await this.page.keyboard.type(caption);
    await form.locator('input[name=weight]').fill(String(weight));
    await form.getByRole('button', { name: 'Add variant' }).click();
  }

  /** sets the terms' fields (by input name) and saves them */
  async saveTerms(fields: Record<string, string>) {
    const form = this.page.getByTestId('terms-form');
    for (const [name, value] of Object.entries(fields)) await form.locator(`input[name=${name}]`).fill(value);
    await form.getByRole('button', { name: 'Save terms' }).click();
  }

  async importTargets(fileName: string, csv: string) {
    const form = this.section('Targets').getByTestId('import-form');
    await form
      .locator('input[name=file]')
      .setInputFiles({ name: fileName, mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await form.getByRole('button', { name: 'Upload File' }).click();
  }

  targetRows() {
    return this.section('Targets').getByTestId('targets').locator('[data-row]');
  }

  replyRows() {
    return this.section('Replies').locator('[data-row]');
  }

  topupRows() {
    return this.section('Top-ups').locator('[data-row]');
  }

  async recordTopup(amount: string, note: string) {
    const form = this.page.getByTestId('topup-form');
    await form.locator('input[name=amount]').fill(amount);
    await form.locator('input[name=note]').fill(note);
    await form.getByRole('button', { name: 'Record top-up' }).click();
  }

  /** clicks `button` and reads the file the browser downloads */
  async download(button: Locator): Promise<Downloaded> {
    const [file] = await Promise.all([this.page.waitForEvent('download'), button.click()]);
    return { name: file.suggestedFilename(), text: readFileSync((await file.path()) as string, 'utf8') };
  }
}
