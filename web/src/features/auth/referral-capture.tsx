import { REFERRAL_STORAGE_KEY } from '@wa/shared';
import { useEffect } from 'react';
import { useLocation } from 'react-router';

/**
 * §2 Referral capture: a `referral` query parameter is saved in localStorage under
 * referral_code and removed from the address without a reload.
 */
export function ReferralCapture() {
  const location = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again on every navigation
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const code = params.get('referral');
    if (!code) return;
    try {
      localStorage.setItem(REFERRAL_STORAGE_KEY, code);
    } catch {}
    params.delete('referral');
    const query = params.toString();
    const url = `${window.location.pathname}${query ? `?${query}` : ''}${window.location.hash}`;
    window.history.replaceState(window.history.state, '', url);
  }, [location.key]);
  return null;
}
