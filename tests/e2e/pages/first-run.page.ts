import type { FirstRunStep } from '@wa/shared';
import type { Page } from 'playwright-core';

/** The dashboard's first-run checklist (issue 20): its four steps, each ticked or not, each with its link. */
export class FirstRunChecklist {
  constructor(private readonly page: Page) {}

  box() {
    return this.page.getByTestId('first-run');
  }

  step(step: FirstRunStep) {
    return this.page.getByTestId(`first-run-${step}`);
  }

  /** 'true' once the step is ticked, 'false' while not, null when the checklist is not shown */
  async done(step: FirstRunStep): Promise<string | null> {
    const item = this.step(step);
    return (await item.count()) ? item.getAttribute('data-done') : null;
  }

  /** the step's link to the screen where it is taken */
  link(step: FirstRunStep) {
    return this.step(step).getByRole('link');
  }

  progress() {
    return this.page.getByTestId('first-run-progress').textContent();
  }
}
