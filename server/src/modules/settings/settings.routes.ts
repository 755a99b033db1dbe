import { parse } from '@wa/core/validate';
import { settingsBody } from '@wa/shared';
import { Router } from 'express';
import { allow } from '../../http/auth';
import type { SettingsService } from './settings.service';

/** §7 Settings: /api/admin/setting/…; every signed-in role reads (banner, bank list), admin and dev write. */
export function settingsRoutes(settings: SettingsService): Router {
  const r = Router();
  r.get('/get', allow('settings.read'), async (_req, res) => {
    res.json(await settings.get());
  });
  r.put('/update', allow('settings.update'), async (req, res) => {
    res.json(await settings.update(parse(settingsBody, req.body ?? {})));
  });
  return r;
}

/**
 * GET /api/settings/public, readable without a token (issue 20): the texts of /terms,
 * /privacy-policy and /reset-password, and the menu's Telegram link. Nothing else of the row.
 */
export function publicSettingsRoutes(settings: SettingsService): Router {
  const r = Router();
  r.get('/public', async (_req, res) => {
    res.json(await settings.getPublic());
  });
  return r;
}
