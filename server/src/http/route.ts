import { parse } from '@wa/core/validate';
import type { Answer, ApiRoute, BodyOut, ParamsOut, QueryOut } from '@wa/shared';
import type { Request, RequestHandler, Response, Router } from 'express';
import type { z } from 'zod';
import { allow, sessionOnly } from './auth';

/** What a handler is given: the request's parts, parsed by the declaration's schemas. */
export interface RouteInput<D> {
  params: ParamsOut<D>;
  query: QueryOut<D>;
  body: BodyOut<D>;
  req: Request;
  res: Response;
}

/**
 * What a handler of a JSON route answers when it has streamed the JSON itself (a million rows that
 * never sit in memory: the phone list, the imports' outcomes); the binder then sends nothing.
 */
export const WRITTEN = Object.freeze({ written: 'by the handler' } as const);

/**
 * A handler answers the declaration's response type, which the binder sends with its status (or
 * WRITTEN when it streamed the answer itself); a route that `produces` something else writes
 * `res` itself and answers nothing.
 */
export type RouteHandler<D> = (
  input: RouteInput<D>,
) => Promise<Answer<D> | typeof WRITTEN> | Answer<D> | typeof WRITTEN;

/** The declaration an Express route was bound from: what openapi.test.ts reads off the router. */
export const DECLARED = Symbol('declared route');
export type DeclaredHandler = RequestHandler & { [DECLARED]: ApiRoute };

/** Options of one binding. */
export interface BindOptions {
  /** a signed-in route on a router mounted without authentication (auth's): its authentication, run first */
  authenticate?: RequestHandler;
  /** middleware that runs after the ability's guard, before parsing */
  before?: RequestHandler[];
}

const expressPath = (route: ApiRoute): string =>
  (route.path.slice(route.mount.length) || '/').replace(/\{(\w+)\}/g, ':$1');

function parseQuery(schema: ApiRoute['query'], query: unknown): unknown {
  if (!schema) return {};
  const all = Array.isArray(schema) ? schema : [schema as z.ZodType];
  return Object.assign({}, ...all.map((s) => parse(s, query)));
}

function parseParams(schemas: ApiRoute['params'], params: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(schemas ?? {})) out[name] = parse(schema, params[name]);
  return out;
}

/**
 * Binds `route` on `router` (mounted at route.mount): a session-only route's refusal of API keys,
 * the policy guard for its ability, its path parameters, query and body parsed in that order (a
 * refusal is the schema's 400), then `handler`, whose answer goes out as JSON with the declared
 * status.
 */
export function bind<D extends ApiRoute>(
  router: Router,
  route: D,
  handler: RouteHandler<D>,
  options: BindOptions = {},
): void {
  const guard: RequestHandler[] = [
    ...(options.authenticate ? [options.authenticate] : []),
    ...(route.sessionOnly === undefined ? [] : [sessionOnly(route.sessionOnly)]),
    ...(route.access === 'public' || route.access === 'signed-in' ? [] : [allow(route.access)]),
  ];
  const run: RequestHandler = async (req, res) => {
    const input = {
      params: parseParams(route.params, req.params as Record<string, string>),
      query: parseQuery(route.query, req.query),
      body: route.body ? parse(route.body, req.body ?? {}) : undefined,
      req,
      res,
    } as RouteInput<D>;
    const answer = await handler(input);
    if (answer === WRITTEN || route.produces !== undefined || res.headersSent) return;
    res.status(res.statusCode !== 200 ? res.statusCode : (route.status ?? 200)).json(answer);
  };
  const declared = Object.assign(run, { [DECLARED]: route }) as DeclaredHandler;
  router[route.method](expressPath(route), ...guard, ...(options.before ?? []), declared);
}
