import { z } from 'zod';

/** A JSON Schema as the OpenAPI document holds it, in the form zod reads back. */
export type JsonSchema = Parameters<typeof z.fromJSONSchema>[0];

/** What the response checks read of the OpenAPI document. */
export interface OpenApiDoc {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema?: JsonSchema }> }> }>
  >;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** A copy of `value` with every `$ref` to `#/components/schemas/X` pointed at `#/$defs/X`. */
function toDefs<T>(value: T): T {
  return JSON.parse(JSON.stringify(value).replaceAll('"#/components/schemas/', '"#/$defs/')) as T;
}

/** The documented success statuses of `method template` (undefined: no such operation). */
export function successStatuses(doc: OpenApiDoc, method: string, template: string): string[] | undefined {
  const op = doc.paths[template]?.[method];
  return op && Object.keys(op.responses).filter((s) => s.startsWith('2'));
}

/** The JSON Schema of what `method template` answers with `status`, if the document gives one. */
export function answerSchema(
  doc: OpenApiDoc,
  method: string,
  template: string,
  status: number,
): JsonSchema | undefined {
  const schema = doc.paths[template]?.[method]?.responses[String(status)]?.content?.['application/json']?.schema;
  if (!schema) return undefined;
  // the named schemas it refers to come along as $defs, so the schema stands on its own
  const $defs = toDefs(doc.components?.schemas ?? {});
  return { ...toDefs(schema as Record<string, unknown>), $defs } as JsonSchema;
}

/**
 * What in `body` does not fit `schema`, one line per issue ([] when it fits): the schema is read
 * back into a validator with zod's fromJSONSchema, so the document's own text is what is checked.
 */
export function misfits(schema: JsonSchema, body: unknown): string[] {
  return (z.fromJSONSchema(schema).safeParse(body).error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);
}

/**
 * The operations whose answers openapi-answers.test.ts checks against the document (it fails
 * unless it checked exactly these); openapi-responses.test.ts checks the others, so between them
 * every answer the document describes is held against a real one.
 */
export const MORE_ANSWERS = [
  'get /openapi.json',
  'post /auth/register',
  'post /auth/login',
  'post /auth/validate',
  'post /auth/logout-all',
  'get /settings/public',
  'get /admin/setting/get',
  'put /admin/setting/update',
  'get /admin/users/members',
  'get /admin/users/members-per-page',
  'get /admin/users/active',
  'get /admin/users/referral-per-page',
  'get /admin/users/blast-fee/{id}',
  'get /admin/users/{id}',
  'put /admin/users/{id}',
  'post /admin/level/create',
  'get /admin/level/list-per-page',
  'get /admin/level/{id}',
  'put /admin/level/{id}',
  'delete /admin/level/{id}',
  'post /admin/proxy/save',
  'get /admin/proxy/list',
  'get /admin/proxy/list-per-page',
  'get /admin/proxy/count-use',
  'get /admin/proxy/{id}',
  'put /admin/proxy/{id}',
  'delete /admin/proxy/{id}',
  'get /admin/phonenumber/receivers',
  'get /admin/phonenumber/list',
  'post /admin/message/create',
  'get /admin/message/list',
  'get /admin/message/list-per-page',
  'get /admin/message/{id}',
  'put /admin/message/{id}',
  'get /admin/message/export',
  'post /admin/message/import',
  'delete /admin/message/{id}',
  'get /admin/campaigns/{id}/templates',
  'post /admin/campaigns/{id}/templates',
  'put /admin/campaigns/{id}/templates/{templateId}',
  'delete /admin/campaigns/{id}/templates/{templateId}',
  'post /admin/campaigns/{id}/templates/{templateId}/approve',
  'post /admin/bonus/create',
  'get /admin/bonus/total/{userId}',
  'get /admin/bonus/list-per-page',
  'delete /admin/bonus/{id}',
  'get /admin/withdraw/balance/{userId}',
  'get /admin/withdraw/income/{userId}',
  'post /admin/withdraw/request',
  'get /admin/withdraw/total-requested/{userId}',
  'get /admin/withdraw/total-accepted/{userId}',
  'get /admin/withdraw/history/{userId}',
  'get /admin/withdraw/histories',
  'get /admin/withdraw/histories-per-page',
  'put /admin/withdraw/update',
  'get /admin/dashboard/counters/{userId}',
  'put /admin/whatsapp/interval',
  'put /admin/whatsapp/status',
  'post /admin/whatsapp/reset',
  'post /admin/whatsapp/lift-pause',
  'post /admin/whatsapp/activate',
  'get /admin/whatsapp/listen-message-created/{id}',
  'post /admin/whatsapp/send-message/1',
  'post /admin/whatsapp/reconnect',
  'post /admin/generator/create',
  'get /admin/generator/list-per-page',
  'get /admin/generator/{id}',
  'put /admin/generator/{id}',
  'post /admin/generator/start',
  'post /admin/generator/stop',
  'get /admin/generator/download-result/{id}',
  'delete /admin/generator/{id}',
  'post /admin/validator/create',
  'get /admin/validator/list-per-page',
  'get /admin/validator/{id}',
  'put /admin/validator/{id}',
  'post /admin/validator/start',
  'post /admin/validator/stop',
  'get /admin/validator/download-result/{id}',
  'delete /admin/validator/{id}',
  'get /dev/monitor/local',
  'get /dev/monitor/remote',
  'get /dev/monitor/socket',
  'post /dev/sim/{deviceId}',
] as const;
