import type { z } from 'zod';
import type { Ability } from '../abilities';

/**
 * One declaration per /api route (issue 21): its method, path, ability, the zod schemas of what it
 * takes and answers, and its summary and tag. The server's router binds routes from these
 * (server/src/http/route.ts: the ability's guard, parsing, the answer's status), the OpenAPI
 * document is built from them (server/src/modules/docs/openapi.ts), and the web calls them
 * (web/src/api/client.ts `request`) with the request and answer types inferred from the schemas.
 */
export type HttpMethod = 'get' | 'post' | 'put' | 'delete' | 'patch';

/** Who may call a route: nobody signed in needed, any signed-in caller, or a policy ability. */
export type Access = 'public' | 'signed-in' | Ability;

/** A route's path parameters: each parsed by its own schema (`{ id: idParam }`). */
export type ParamSchemas = Readonly<Record<string, z.ZodType>>;

/** What every declaration has, whatever it answers. */
interface RouteBase {
  method: HttpMethod;
  /** OpenAPI style, relative to /api: /admin/whatsapp/{id} */
  path: string;
  /** where the feature's router is mounted, relative to /api: a prefix of `path` */
  mount: string;
  summary: string;
  /** the OpenAPI tag (the feature) */
  tag: string;
  access: Access;
  /**
   * the route needs a dashboard session: a request with an API key is refused with this 403 text
   * before its input is read. Key management, "sign out everywhere": what a leaked key must not reach.
   */
  sessionOnly?: string;
  params?: ParamSchemas;
  /** the query's schema; several are parsed one after the other and merged */
  query?: z.ZodType | readonly z.ZodType[];
  /** a JSON body, or with `file` the text fields of a multipart/form-data body */
  body?: z.ZodType;
  /** the multipart file field, when the body is multipart/form-data */
  file?: { name: string; required: boolean; description: string };
  /** the success status when it is not 200 */
  status?: 201 | 202;
  /**
   * the body of a refusal (4XX) when it says more than `{msg}`: `actionErrorDto` for the actions
   * that start or stop work, whose refusals also carry `error`
   */
  failure?: z.ZodType;
  /** refusals worth naming beyond the generic 4XX `{msg}` (a 5XX above all), by status: what each means */
  errors?: Readonly<Record<number, string>>;
}

/** A route that answers JSON: its schema is required, so a route without one does not compile. */
export interface JsonRoute extends RouteBase {
  /** the JSON body of a success (the DTO types are inferred from it) */
  response: z.ZodType;
  produces?: never;
}

/**
 * A route that answers something else (a CSV, a file as uploaded, a page): its media type; the
 * document's schema is `type: string`, with `format: binary` for application/octet-stream.
 */
export interface FileRoute extends RouteBase {
  produces: string;
  response?: never;
}

export type ApiRoute = JsonRoute | FileRoute;

/** A declaration as written in a group: its tag and mount come from the group. */
export type RouteEntry = Omit<JsonRoute, 'tag' | 'mount'> | Omit<FileRoute, 'tag' | 'mount'>;

/**
 * The routes of one feature, by name: their tag, and their paths under the router's mount (`''`
 * for the mount itself). `const` keeps each schema's own type, so callers infer from it.
 */
export function routes<const E extends Record<string, RouteEntry>>(
  tag: string,
  mount: string,
  entries: E,
): { readonly [K in keyof E]: E[K] & Placed } {
  const out = {} as { [K in keyof E]: E[K] & Placed };
  for (const name of Object.keys(entries) as (keyof E)[]) {
    const e = entries[name];
    const placed: Placed & { path: string } = { tag, mount, path: (mount + e.path).replace(/\/$/, '') || '/' };
    out[name] = Object.assign({}, e, placed);
  }
  return out;
}

/** What a group adds to each of its entries. */
interface Placed {
  tag: string;
  mount: string;
}

type Intersect<T> = T extends readonly [infer H extends z.ZodType, ...infer Rest]
  ? z.input<H> & Intersect<Rest>
  : unknown;
type IntersectOut<T> = T extends readonly [infer H extends z.ZodType, ...infer Rest]
  ? z.output<H> & IntersectOut<Rest>
  : unknown;

/** What a caller sends, by the declaration's schemas (their input side). */
export type ParamsIn<D> = D extends { params: infer P extends ParamSchemas }
  ? { [K in keyof P]: z.input<P[K]> }
  : never;
export type QueryIn<D> = D extends { query: infer Q }
  ? Q extends readonly z.ZodType[]
    ? Intersect<Q>
    : Q extends z.ZodType
      ? z.input<Q>
      : never
  : never;
export type BodyIn<D> = D extends { body: infer B extends z.ZodType } ? z.input<B> : never;

/** What the server's handler gets, parsed (the schemas' output side). */
export type ParamsOut<D> = D extends { params: infer P extends ParamSchemas }
  ? { [K in keyof P]: z.output<P[K]> }
  : Record<string, never>;
export type QueryOut<D> = D extends { query: infer Q }
  ? Q extends readonly z.ZodType[]
    ? IntersectOut<Q>
    : Q extends z.ZodType
      ? z.output<Q>
      : Record<string, never>
  : Record<string, never>;
export type BodyOut<D> = D extends { body: infer B extends z.ZodType } ? z.output<B> : undefined;

/** The JSON a route answers on success; `void` for a route that `produces` something else. */
// biome-ignore lint/suspicious/noConfusingVoidType: a produces route's handler returns nothing (its Promise<void>)
export type Answer<D> = D extends { response: infer R extends z.ZodType } ? z.output<R> : void;

/** The path with its parameters filled in: /admin/whatsapp/{id} → /admin/whatsapp/7. */
export function pathOf(route: Pick<ApiRoute, 'path'>, params?: Readonly<Record<string, unknown>>): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = params?.[name];
    if (v === undefined || v === null) throw new Error(`${route.path}: no value for {${name}}`);
    return encodeURIComponent(String(v));
  });
}

/** The query string of a call (without `?`): empty values left out, arrays repeated. */
export function queryString(query?: Readonly<Record<string, unknown>>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null || v === '') continue;
    for (const one of Array.isArray(v) ? v : [v]) q.append(k, String(one));
  }
  return q.toString();
}
