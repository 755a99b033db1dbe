import { z } from 'zod';

/** A JSON Schema as the OpenAPI document holds it, in the form zod reads back. */
export type JsonSchema = Parameters<typeof z.fromJSONSchema>[0];

/** What the response checks read of the OpenAPI document. */
export interface OpenApiDoc {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema?: JsonSchema }> }> }>
  >;
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
  return doc.paths[template]?.[method]?.responses[String(status)]?.content?.['application/json']?.schema;
}

/**
 * What in `body` does not fit `schema`, one line per issue ([] when it fits): the schema is read
 * back into a validator with zod's fromJSONSchema, so the document's own text is what is checked.
 */
export function misfits(schema: JsonSchema, body: unknown): string[] {
  return (z.fromJSONSchema(schema).safeParse(body).error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);
}
