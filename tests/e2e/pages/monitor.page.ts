import type { Page } from 'playwright-core';

/** The dev monitor screens: the JSON views and the realtime log. */
export class MonitorPage {
  constructor(private readonly page: Page) {}

  spinner() {
    return this.page.getByTestId('monitor-spinner');
  }

  raw() {
    return this.page.getByTestId('json-raw');
  }

  viewer() {
    return this.page.getByTestId('json-viewer');
  }

  tree() {
    return this.page.getByTestId('json-tree');
  }

  /** the expand/collapse button of a node or range whose label starts with `label` */
  toggle(root: 'viewer' | 'tree', label: string) {
    const view = root === 'viewer' ? this.viewer() : this.tree();
    return view.locator('button[aria-expanded]').filter({ hasText: label }).first();
  }

  /** the range nodes directly shown, as their labels */
  rangeLabels(root: 'viewer' | 'tree') {
    const view = root === 'viewer' ? this.viewer() : this.tree();
    return view.locator('[data-range] > button').allInnerTexts();
  }

  lines(event?: string) {
    return this.page.locator(
      event ? `[data-testid=monitor-line][data-event="${event}"]` : '[data-testid=monitor-line]',
    );
  }
}
