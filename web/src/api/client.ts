import {
  type Answer,
  type ApiError,
  type ApiRoute,
  AUTH,
  type AuthResponse,
  type BodyIn,
  type JsonRoute,
  type ParamsIn,
  pathOf,
  type QueryIn,
  queryString,
  type RegisterBody,
  SETTINGS,
  USERS,
  type UserDto,
} from '@wa/shared';
import { getToken } from '../lib/cookies';
import { ApiCallError } from './errors';

// the errors live apart so the sign-in screen has them without this module (it loads with the first call)
export { ApiCallError, errorText } from './errors';

interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  body?: unknown;
  /** sends the bearer token from the authToken cookie; without one no call is made */
  auth?: boolean;
  /** the §8 fallback when the server gives no message */
  fallback: string;
  /**
   * error statuses whose JSON body is the answer, not a failure: GET /api/health answers 503 with
   * its full report (what is down and why), which the banner shows
   */
  accept?: readonly number[];
}

/** The one place that calls fetch: JSON in and out, errors as ApiCallError. */
async function call(path: string, opts: CallOptions): Promise<unknown> {
  const headers: Record<string, string> = {};
  if (opts.auth !== false) {
    const token = getToken();
    if (!token) throw new ApiCallError('Authorization token is missing', 0);
    headers.Authorization = `Bearer ${token}`;
  }
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`/api${path}`, {
      method: opts.method ?? 'GET',
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
  } catch {
    throw new ApiCallError(
      opts.method && opts.method !== 'GET' ? 'Network error. Please try again.' : 'Internal server error',
      0,
    );
  }
  let data: unknown = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok && !(data !== null && opts.accept?.includes(res.status))) {
    const e = (data ?? {}) as Partial<ApiError> & { error?: string; message?: string };
    throw new ApiCallError(e.msg ?? e.error ?? e.message ?? opts.fallback, res.status, e.errors ?? {}, e.code);
  }
  return data;
}

/** Auth responses may carry token and user at the top or under `data` (§3). */
function unwrapAuth(body: AuthResponse & { data?: Partial<AuthResponse> }): AuthResponse {
  return {
    token: body.token ?? body.data?.token ?? '',
    user: (body.user ?? body.data?.user) as UserDto,
    msg: body.msg,
  };
}

export const authApi = {
  async login(email: string, password: string): Promise<AuthResponse> {
    return unwrapAuth(await request(AUTH.login, { body: { email, password }, fallback: 'Error signing in' }));
  },
  async register(form: RegisterBody): Promise<AuthResponse> {
    return unwrapAuth(await request(AUTH.register, { body: form, fallback: 'Failed to sign up. Please try again.' }));
  },
  /** "Log out everywhere": every token of this user stops working, this browser's too. */
  logoutAll: () => request(AUTH.logoutAll, { fallback: 'Error signing out' }),
  /**
   * Resolves to the status and body: a 401 is not an exception here, it means "log out". A fetch of
   * its own, not `request`, since the caller reads the status.
   */
  async validate(token: string): Promise<{ status: number; body: Answer<typeof AUTH.validate> | null }> {
    const sent: BodyIn<typeof AUTH.validate> = { token };
    try {
      const res = await fetch(`/api${urlOf(AUTH.validate)}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(sent),
      });
      let body: Answer<typeof AUTH.validate> | null = null;
      try {
        body = await res.json();
      } catch {
        body = null;
      }
      return { status: res.status, body };
    } catch {
      return { status: 0, body: null };
    }
  },
};

export const usersApi = {
  get: (id: number) => request(USERS.get, { params: { id }, fallback: 'Error fetching user' }),
  // `token` comes back when the change ended this user's older tokens (own password or e-mail)
  update: (id: number, body: BodyIn<typeof USERS.update>) =>
    request(USERS.update, { params: { id }, body, fallback: 'Error updating user' }),
};

export const settingsApi = {
  get: () => request(SETTINGS.get, { fallback: 'Error fetching settings' }),
  update: (body: BodyIn<typeof SETTINGS.update>) =>
    request(SETTINGS.update, { body, fallback: 'Error updating settings' }),
};

/**
 * Sends a multipart form (uploads, the template and validator forms) with the bearer token; any
 * 2xx is a success (create answers 201, update 200); errors as ApiCallError.
 */
async function sendForm(path: string, method: 'POST' | 'PUT', form: FormData, fallback: string): Promise<unknown> {
  const token = getToken();
  if (!token) throw new ApiCallError('Authorization token is missing', 0);
  let res: Response;
  try {
    res = await fetch(`/api${path}`, { method, headers: { Authorization: `Bearer ${token}` }, body: form });
  } catch {
    throw new ApiCallError('Network error. Please try again.', 0);
  }
  const data = (await res.json().catch(() => null)) as
    | (Partial<ApiError> & { error?: string; message?: string })
    | null;
  if (!res.ok)
    throw new ApiCallError(data?.msg ?? data?.error ?? data?.message ?? fallback, res.status, data?.errors ?? {});
  return data;
}

/** What a call of a declared route sends: its parameters, query and body as the schemas take them. */
export type CallInput<D> = ([ParamsIn<D>] extends [never] ? unknown : { params: ParamsIn<D> }) &
  ([QueryIn<D>] extends [never] ? unknown : { query?: QueryIn<D> }) &
  ([BodyIn<D>] extends [never] ? unknown : { body: BodyIn<D> }) &
  Pick<CallOptions, 'fallback' | 'accept'>;

/** The parts of a CallInput, whatever the route takes. */
interface CallParts {
  params?: Readonly<Record<string, unknown>>;
  query?: Readonly<Record<string, unknown>>;
  body?: unknown;
}

/** The address of a declared route with its parameters and query: for links and downloads too. */
export function urlOf(route: Pick<ApiRoute, 'path'>, input: Pick<CallParts, 'params' | 'query'> = {}): string {
  const q = queryString(input.query);
  return `${pathOf(route, input.params)}${q ? `?${q}` : ''}`;
}

/**
 * Calls a route by its declaration (shared/src/api): the path, method and whether it needs the
 * token come from it, and the answer has the type of its response schema.
 */
export async function request<D extends JsonRoute>(route: D, input: CallInput<D>): Promise<Answer<D>> {
  const parts = input as CallParts;
  const answer = await call(urlOf(route, parts), {
    method: route.method === 'get' ? 'GET' : (route.method.toUpperCase() as CallOptions['method']),
    body: parts.body,
    auth: route.access !== 'public',
    fallback: input.fallback,
    accept: input.accept,
  });
  // the one place an answer takes its type: the server's schema for it, checked by openapi-responses.test.ts
  return answer as Answer<D>;
}

/** Sends a declared multipart route (uploads, the template and validator forms). */
export async function requestForm<D extends JsonRoute & { file: object }>(
  route: D,
  form: FormData,
  input: Pick<CallInput<D>, 'fallback'> & ([ParamsIn<D>] extends [never] ? unknown : { params: ParamsIn<D> }),
): Promise<Answer<D>> {
  const parts = input as CallParts;
  const method = route.method === 'put' ? 'PUT' : 'POST';
  const answer = await sendForm(urlOf(route, parts), method, form, input.fallback);
  return answer as Answer<D>;
}
