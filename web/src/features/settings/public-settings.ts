import { PUBLIC_SETTINGS, type PublicSettingsDto } from '@wa/shared';
import { useEffect, useState } from 'react';
import { errorText, request } from '../../api/client';

/** GET /api/settings/public: no token needed, so the public pages can read it too. */
export const publicSettingsApi = {
  get: () => request(PUBLIC_SETTINGS.get, { fallback: 'Error fetching settings' }),
};

/**
 * The texts an admin edits in Pengaturan for the public pages, and the menu's Telegram link:
 * `settings` is null until they arrive, `error` says why they did not.
 */
export function usePublicSettings(): { settings: PublicSettingsDto | null; error: string | null } {
  const [settings, setSettings] = useState<PublicSettingsDto | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    publicSettingsApi
      .get()
      .then((s) => live && setSettings(s))
      .catch((err) => live && setError(errorText(err, 'Internal server error')));
    return () => {
      live = false;
    };
  }, []);
  return { settings, error };
}
