import { publicSettingsResponse, savedSetting, settingResponse, settingsBody } from '../contract/settings';
import { routes } from './define';

/** §7 Settings: every signed-in role reads (banner, bank list), admin and dev write. */
export const SETTINGS = routes('settings', '/admin/setting', {
  get: {
    method: 'get',
    path: '/get',
    summary: 'The settings (banner, bank list, …)',
    access: 'settings.read',
    response: settingResponse,
  },
  update: {
    method: 'put',
    path: '/update',
    summary: 'Update the settings',
    access: 'settings.update',
    body: settingsBody,
    response: savedSetting,
  },
});

/** GET /api/settings/public, readable without a token (issue 20). */
export const PUBLIC_SETTINGS = routes('settings', '/settings', {
  get: {
    method: 'get',
    path: '/public',
    summary: "The public pages' texts (terms, privacy, the reset-password contact) and the Telegram link",
    access: 'public',
    response: publicSettingsResponse,
  },
});
