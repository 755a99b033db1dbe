import type { RegisterBody, UserDto } from '@wa/shared';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiCallError, errorText } from '../../api/errors';
import { clearSession, getStoredUser, getToken, storeSession, storeToken, storeUser } from '../../lib/cookies';
import { authFailureText, signUpFieldErrors } from './auth-errors';

interface AuthState {
  user: UserDto | null;
  token: string | null;
  loading: boolean;
  error: string | null;
  fieldErrors: Record<string, string>;
  login(email: string, password: string): Promise<boolean>;
  register(form: RegisterBody): Promise<boolean>;
  logout(): void;
  /** ends every session of this user on every device, then signs out here */
  logoutEverywhere(): Promise<void>;
  /** §4 token validation: 401 logs out silently; other failures keep the session */
  validate(): Promise<void>;
  /** keeps an edited user; `token` replaces this browser's when the edit ended the older ones */
  setUser(user: UserDto, token?: string): void;
  clearFieldError(field: string): void;
}

const AuthContext = createContext<AuthState | null>(null);

/**
 * The API client, loaded with the first call (issue 23): it holds every route's declaration and
 * zod schema, which the sign-in screen does not need to show itself. `preloadAuth` starts the
 * download early (the sign-in form calls it once the user starts typing).
 */
const authApi = async () => (await import('../../api/client')).authApi;
export function preloadAuth(): void {
  void authApi().catch(() => {});
}

/** Holds the session of §4 Auth: cookies in, cookies out, and the flags the forms show. */
export function AuthProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const [user, setUserState] = useState<UserDto | null>(() => getStoredUser());
  const [token, setToken] = useState<string | null>(() => getToken());
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  const finish = useCallback(
    (t: string, u: UserDto) => {
      storeSession(t, u);
      setToken(t);
      setUserState(u);
      navigate('/dashboard');
    },
    [navigate],
  );

  const login = useCallback(
    async (email: string, password: string) => {
      setLoading(true);
      setError(null);
      setFieldErrors({});
      try {
        const res = await (await authApi()).login(email, password);
        if (!res.token || !res.user) {
          setError(res.msg || 'Error signing in');
          return false;
        }
        finish(res.token, res.user);
        return true;
      } catch (err) {
        setError(authFailureText(err));
        return false;
      } finally {
        setLoading(false);
      }
    },
    [finish],
  );

  const register = useCallback(
    async (form: RegisterBody) => {
      setLoading(true);
      setError(null);
      setFieldErrors({});
      try {
        const res = await (await authApi()).register(form);
        if (!res.token || !res.user) {
          setError(res.msg || 'Failed to sign up. Please try again.');
          return false;
        }
        finish(res.token, res.user);
        return true;
      } catch (err) {
        // a refusal that names a field shows under that field only, never also in the banner
        const fields = signUpFieldErrors(err);
        if (fields) setFieldErrors(fields);
        else setError(authFailureText(err));
        return false;
      } finally {
        setLoading(false);
      }
    },
    [finish],
  );

  const logout = useCallback(() => {
    clearSession();
    setToken(null);
    setUserState(null);
    navigate('/signin');
  }, [navigate]);

  const logoutEverywhere = useCallback(async () => {
    setError(null);
    try {
      await (await authApi()).logoutAll();
    } catch (err) {
      // a token that already stopped working has nothing left to end
      if (!(err instanceof ApiCallError && err.status === 401)) {
        setError(errorText(err, 'Error signing out'));
        return;
      }
    }
    logout();
  }, [logout]);

  const validate = useCallback(async () => {
    const t = getToken();
    if (!t) return;
    const { status, body } = await (await authApi()).validate(t);
    // the session moved on meanwhile (this browser changed its own password and got a new token)
    if (getToken() !== t) return;
    if (status === 401) {
      clearSession();
      setToken(null);
      setUserState(null);
      navigate('/signin', { replace: true });
      return;
    }
    if (status < 200 || status >= 300 || !body || !body.isvalid) {
      setError(body?.msg || body?.err || 'Validate failed');
      return;
    }
    if (body.user) {
      storeUser(body.user);
      setUserState(body.user);
    }
  }, [navigate]);

  const setUser = useCallback((u: UserDto, t?: string) => {
    if (t) {
      storeToken(t);
      setToken(t);
    }
    storeUser(u);
    setUserState(u);
  }, []);

  const clearFieldError = useCallback((field: string) => {
    setFieldErrors((prev) => {
      if (!(field in prev)) return prev;
      const next = { ...prev };
      delete next[field];
      return next;
    });
  }, []);

  const value = useMemo(
    () => ({
      user,
      token,
      loading,
      error,
      fieldErrors,
      login,
      register,
      logout,
      logoutEverywhere,
      validate,
      setUser,
      clearFieldError,
    }),
    [
      user,
      token,
      loading,
      error,
      fieldErrors,
      login,
      register,
      logout,
      logoutEverywhere,
      validate,
      setUser,
      clearFieldError,
    ],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth outside AuthProvider');
  return ctx;
}
