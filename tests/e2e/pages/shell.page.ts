import type { Page } from 'playwright-core';

/** The signed-in frame: sidebar, header, title. */
export class ShellPage {
  constructor(private readonly page: Page) {}

  title() {
    return this.page.getByTestId('page-title');
  }

  sidebar() {
    return this.page.getByTestId('sidebar');
  }

  menuLabels() {
    return this.page.locator('nav[aria-label="Main menu"] > ul > li').allInnerTexts();
  }

  async openUserMenu() {
    await this.page.getByTestId('user-menu').click();
  }

  toggleSidebar() {
    return this.page.getByTestId('sidebar-toggle').click();
  }

  toggleTheme() {
    return this.page.getByTestId('theme-toggle').click();
  }

  search() {
    return this.page.getByTestId('header-search');
  }

  /** the "Sistem terganggu" banner admins and devs see while GET /api/health is not ok */
  healthBanner() {
    return this.page.getByTestId('health-banner');
  }
}
