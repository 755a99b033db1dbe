import { ANALYTICS_COOKIE, AUTH_COOKIE, COOKIE_MAX_AGE_SECONDS, USER_COOKIE, type UserDto } from '@wa/shared';

/** Reads a cookie by name. */
export function getCookie(name: string): string | null {
  for (const part of document.cookie.split('; ')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i) === name) return decodeURIComponent(part.slice(i + 1));
  }
  return null;
}

/** Sets a cookie as §3 says: path /, ten years, SameSite lax, Secure only over https. */
export function setCookie(name: string, value: string, maxAge = COOKIE_MAX_AGE_SECONDS): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: the spec (§3) fixes these cookies' attributes
  document.cookie = `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${maxAge}; SameSite=Lax${secure}`;
}

export function removeCookie(name: string): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the spec (§3) fixes these cookies' attributes
  document.cookie = `${name}=; Path=/; Max-Age=0; SameSite=Lax`;
}

export function getToken(): string | null {
  return getCookie(AUTH_COOKIE);
}

export function getStoredUser(): UserDto | null {
  const raw = getCookie(USER_COOKIE);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as UserDto;
  } catch {
    return null;
  }
}

/** Keeps the session: token and user cookies, and clears the dashboard cache (§3 analytics). */
export function storeSession(token: string, user: UserDto): void {
  setCookie(AUTH_COOKIE, token);
  setCookie(USER_COOKIE, JSON.stringify(user));
  removeCookie(ANALYTICS_COOKIE);
}

/** Replaces the token alone (a password change gave this browser a fresh one). */
export function storeToken(token: string): void {
  setCookie(AUTH_COOKIE, token);
}

export function storeUser(user: UserDto): void {
  setCookie(USER_COOKIE, JSON.stringify(user));
}

export function clearSession(): void {
  removeCookie(AUTH_COOKIE);
  removeCookie(USER_COOKIE);
}
