import { Router } from 'express';
import { requireRoles } from '../../http/auth';
import type { SettingsService } from './settings.service';

/** §7 Settings: /api/admin/setting/…; every signed-in role reads (banner, bank list), admin and dev write. */
export function settingsRoutes(settings: SettingsService): Router {
  const r = Router();
  r.get('/get', async (_req, res) => {
    res.json(await settings.get());
  });
  r.put('/update', requireRoles('admin', 'dev'), async (req, res) => {
    res.json(await settings.update(req.body));
  });
  return r;
}
