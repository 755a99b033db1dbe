import { POLICY } from '@wa/core/policy';
import { type Ability, type Access, counterUserParam, type HttpMethod, idParam, ROLES, type Role } from '@wa/shared';
import type { z } from 'zod';

export type { Access, HttpMethod };

export interface RouteDoc {
  method: HttpMethod;
  /** OpenAPI style, relative to /api: /admin/whatsapp/{id} */
  path: string;
  summary: string;
  /** the OpenAPI tag (the feature) */
  tag: string;
  access: Access;
  /** a JSON body, or with `multipart` the text fields of a multipart/form-data body */
  body?: z.ZodType;
  /** the multipart file field, when the body is multipart/form-data */
  file?: { name: string; required: boolean; description: string };
  /** query schemas (objects); several are merged, as a route that parses the query twice */
  query?: z.ZodType | readonly z.ZodType[];
  params?: Readonly<Record<string, z.ZodType>>;
  /**
   * what the route answers on success when it is not JSON: its schema is `type: string`, with
   * `format: binary` for application/octet-stream (a file as uploaded)
   */
  produces?: string;
  /**
   * the JSON body of a success, a schema of shared/src/contract (the DTO types are inferred from
   * it, and openapi-responses.test.ts checks real answers against the document's copy)
   */
  response?: z.ZodType;
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

/** The roles `access` lets in: 'public', or the roles of the ability (any ∪ own). */
export function rolesOf(access: Access): Role[] | 'public' {
  if (access === 'public') return 'public';
  if (access === 'signed-in') return [...ROLES];
  const rule: { any: readonly Role[]; own?: readonly Role[] } = POLICY[access];
  const roles = new Set<Role>([...rule.any, ...(rule.own ?? [])]);
  return ROLES.filter((r) => roles.has(r));
}

/** Path parameters most routes take. */
export const id = { id: idParam };
export const userId = { userId: counterUserParam };
/** The catalogue's ability (admin and dev). */
export const cat: Ability = 'catalogue.manage';

export type Entry = Omit<RouteDoc, 'tag'>;
/** The routes of one feature: its tag, and its paths under the router's mount path. */
export const group = (tag: string, prefix: string, entries: Entry[]): RouteDoc[] =>
  entries.map((e) => ({ ...e, tag, path: (prefix + e.path).replace(/\/$/, '') || '/' }));
