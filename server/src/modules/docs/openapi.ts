import { WEBHOOK_EVENT_DATA, WEBHOOK_EVENTS, WEBHOOK_HEADERS, type WebhookEvent } from '@wa/shared';
import { z } from 'zod';
import { ROUTES, type RouteDoc, rolesOf } from './registry';

/** A JSON Schema object as zod writes it (and OpenAPI 3.1 takes it). */
type Schema = Record<string, unknown>;

/**
 * zod 4's JSON Schema of what a client sends (`io: 'input'`): a preprocess or transform is
 * described by its input side, and anything JSON Schema cannot say becomes `{}` instead of a throw.
 * A response is described as the server writes it (`io: 'output'`), where an object says
 * `additionalProperties: false`: the answer holds the documented fields and no others.
 */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'input'): Schema {
  const out: Schema = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' });
  delete out.$schema;
  return out;
}

/** One object schema of several (a route that parses the query with two schemas). */
function objectOf(schemas: z.ZodType[]): { properties: Record<string, Schema>; required: string[] } {
  const properties: Record<string, Schema> = {};
  const required = new Set<string>();
  for (const s of schemas) {
    const js = jsonSchema(s);
    Object.assign(properties, (js.properties as Record<string, Schema> | undefined) ?? {});
    for (const r of (js.required as string[] | undefined) ?? []) required.add(r);
  }
  return { properties, required: [...required] };
}

const ERROR = {
  description: 'An error: `{msg}` (with field errors on a 400)',
  content: {
    'application/json': {
      schema: { type: 'object', properties: { msg: { type: 'string' } }, required: ['msg'] },
    },
  },
};

function operation(route: RouteDoc): Schema {
  const roles = rolesOf(route.access);
  const parameters: Schema[] = [];
  for (const [name, schema] of Object.entries(route.params ?? {})) {
    parameters.push({ name, in: 'path', required: true, schema: jsonSchema(schema) });
  }
  if (route.query) {
    const { properties, required } = objectOf(Array.isArray(route.query) ? route.query : [route.query]);
    for (const [name, schema] of Object.entries(properties)) {
      parameters.push({ name, in: 'query', required: required.includes(name), schema });
    }
  }
  const op: Schema = {
    tags: [route.tag],
    summary: route.summary,
    operationId: `${route.method}${route.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
    description: roles === 'public' ? 'Public: no token.' : `Roles: ${roles.join(', ')}.`,
    'x-roles': roles,
    responses: {
      [String(route.status ?? 200)]: {
        description: 'Success',
        content: {
          [route.produces ?? 'application/json']: route.response
            ? { schema: jsonSchema(route.response, 'output') }
            : {},
        },
      },
      '4XX': ERROR,
      ...Object.fromEntries(
        Object.entries(route.errors ?? {}).map(([status, description]) => [status, { ...ERROR, description }]),
      ),
    },
  };
  if (parameters.length) op.parameters = parameters;
  if (roles !== 'public') op.security = [{ bearer: [] }, { apiKey: [] }];
  else op.security = [];
  if (route.file) {
    const fields = route.body ? jsonSchema(route.body) : { type: 'object', properties: {} };
    const properties = {
      ...((fields.properties as Schema | undefined) ?? {}),
      [route.file.name]: { type: 'string', format: 'binary', description: route.file.description },
    };
    const required = [
      ...((fields.required as string[] | undefined) ?? []),
      ...(route.file.required ? [route.file.name] : []),
    ];
    op.requestBody = {
      required: true,
      content: { 'multipart/form-data': { schema: { ...fields, type: 'object', properties, required } } },
    };
  } else if (route.body) {
    op.requestBody = { required: true, content: { 'application/json': { schema: jsonSchema(route.body) } } };
  }
  return op;
}

/** What each header of a delivery says (WEBHOOK_HEADERS names them). */
const WEBHOOK_HEADER_DOCS: Record<keyof typeof WEBHOOK_HEADERS, string> = {
  event: 'The event name, as in the body',
  timestamp: 'When this attempt was signed, in unix seconds',
  signature: 'sha256=<hex HMAC-SHA256 of "{X-WA-Timestamp}.{raw body}" with the endpoint\'s secret>',
  delivery: "The delivery id (a resend has a new one; the body's `id` stays the same)",
};

/**
 * One event's entry of the top-level `webhooks`: the POST a subscribed endpoint receives, its body
 * the WebhookBody envelope with that event's `data` schema, and its signed headers.
 */
function webhookOperation(event: WebhookEvent): Schema {
  const body = z.object({
    id: z.string().describe("the event's id (a UUID), the same in every delivery of it"),
    event: z.literal(event),
    created_at: z.string().describe('ISO time the event happened'),
    data: WEBHOOK_EVENT_DATA[event],
  });
  return {
    post: {
      tags: ['webhooks'],
      summary: `The ${event} event`,
      operationId: `webhook${event.replace(/(^|\.)(.)/g, (_m, _d: string, c: string) => c.toUpperCase())}`,
      description: 'Posted to every active endpoint subscribed to this event that may hear it (see docs/WEBHOOKS.md).',
      parameters: Object.entries(WEBHOOK_HEADERS).map(([key, name]) => ({
        name,
        in: 'header',
        required: true,
        description: WEBHOOK_HEADER_DOCS[key as keyof typeof WEBHOOK_HEADERS],
        schema: { type: 'string' },
      })),
      requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(body) } } },
      responses: {
        '2XX': { description: 'Delivered. Any other answer, or none within the timeout, is retried with backoff.' },
      },
    },
  };
}

/** The OpenAPI 3.1 document of every /api route, built from the registry and the shared zod contract. */
export function buildOpenApi(routes: readonly RouteDoc[] = ROUTES): Schema {
  const paths: Record<string, Record<string, Schema>> = {};
  for (const route of routes) {
    paths[route.path] ??= {};
    paths[route.path][route.method] = operation(route);
  }
  const tags = [...new Set(routes.map((r) => r.tag))].map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'WA Blaster API',
      version: '0.1.0',
      description:
        'Generated from the shared zod contract. Each operation states its success status and, where given, the JSON it answers (those fields and no others). Errors are JSON `{msg}` with a 4xx. Each operation lists the roles that may call it in `x-roles`. `webhooks` describes what a webhook endpoint receives for each event.',
    },
    servers: [{ url: '/api' }],
    tags,
    paths,
    webhooks: Object.fromEntries(WEBHOOK_EVENTS.map((event) => [event, webhookOperation(event)])),
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'A dashboard session token, or an API key (`wab_…`) as a bearer token',
        },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An API key (`wab_…`)' },
      },
    },
  };
}
