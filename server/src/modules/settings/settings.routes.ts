import { PUBLIC_SETTINGS, SETTINGS } from '@wa/shared';
import { Router } from 'express';
import { bind } from '../../http/route';
import type { SettingsService } from './settings.service';

/** §7 Settings: /api/admin/setting/…, as declared in shared/src/api/settings.ts. */
export function settingsRoutes(settings: SettingsService): Router {
  const r = Router();
  bind(r, SETTINGS.get, () => settings.get());
  bind(r, SETTINGS.update, ({ body }) => settings.update(body));
  return r;
}

/**
 * GET /api/settings/public, readable without a token (issue 20): the texts of /terms,
 * /privacy-policy and /reset-password, and the menu's Telegram link. Nothing else of the row.
 */
export function publicSettingsRoutes(settings: SettingsService): Router {
  const r = Router();
  bind(r, PUBLIC_SETTINGS.get, () => settings.getPublic());
  return r;
}
