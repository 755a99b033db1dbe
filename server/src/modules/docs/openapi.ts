import { POLICY } from '@wa/core/policy';
import {
  type Access,
  API_ROUTES,
  type ApiRoute,
  ROLES,
  type Role,
  WEBHOOK_EVENT_DATA,
  WEBHOOK_EVENTS,
  WEBHOOK_HEADERS,
  type WebhookEvent,
} from '@wa/shared';
import { z } from 'zod';
import { COMPONENTS } from './components';

/** A JSON Schema object as zod writes it (and OpenAPI 3.1 takes it). */
type Schema = Record<string, unknown>;

/** The roles `access` lets in: 'public', or the roles of the ability (any ∪ own). */
export function rolesOf(access: Access): Role[] | 'public' {
  if (access === 'public') return 'public';
  if (access === 'signed-in') return [...ROLES];
  const rule: { any: readonly Role[]; own?: readonly Role[] } = POLICY[access];
  const roles = new Set<Role>([...rule.any, ...(rule.own ?? [])]);
  return ROLES.filter((r) => roles.has(r));
}

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

/** Where the document's named schemas live. */
const COMPONENT_REF = '#/components/schemas/';
const ref = (name: string): Schema => ({ $ref: `${COMPONENT_REF}${name}` });

/**
 * The JSON Schemas of the answers (success and refusal bodies) of `routes`, and of the named
 * COMPONENTS, from one conversion of a registry holding them all: a component met inside an
 * answer becomes a `$ref` to `#/components/schemas/{name}`. Answers are converted as the server
 * writes them (`io: 'output'`), where an object says `additionalProperties: false`.
 */
function answerSchemas(routes: readonly ApiRoute[]): {
  components: Record<string, Schema>;
  of: (schema: z.ZodType) => Schema;
} {
  const registry = z.registry<{ id: string }>();
  const names = new Map<z.ZodType, string>();
  for (const [name, schema] of Object.entries(COMPONENTS)) {
    registry.add(schema, { id: name });
    names.set(schema, name);
  }
  const anonymous = new Map<z.ZodType, string>();
  for (const route of routes) {
    for (const schema of [route.response, route.failure]) {
      if (!schema || names.has(schema) || anonymous.has(schema)) continue;
      const id = `__answer${anonymous.size}`;
      registry.add(schema, { id });
      anonymous.set(schema, id);
    }
  }
  const { schemas } = z.toJSONSchema(registry, {
    io: 'output',
    unrepresentable: 'any',
    target: 'draft-2020-12',
    uri: (id) => `${COMPONENT_REF}${id}`,
  });
  const clean = (js: Schema): Schema => {
    const { $id: _id, $schema: _schema, ...rest } = js;
    return rest;
  };
  const components: Record<string, Schema> = {};
  for (const name of names.values()) components[name] = clean(schemas[name] as Schema);
  return {
    components,
    of: (schema) => {
      const name = names.get(schema);
      if (name) return ref(name);
      const id = anonymous.get(schema);
      if (!id) throw new Error('an answer schema that is not in the registry');
      return clean(schemas[id] as Schema);
    },
  };
}

/** The schema of a success that is not JSON: text, or the bytes of a file. */
function textSchema(produces: string): Schema {
  return produces === 'application/octet-stream' ? { type: 'string', format: 'binary' } : { type: 'string' };
}

function operation(route: ApiRoute, answer: (schema: z.ZodType) => Schema): Schema {
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
    description:
      roles === 'public'
        ? 'Public: no token.'
        : `Roles: ${roles.join(', ')}.${route.sessionOnly ? ' A dashboard session only: an API key gets 403.' : ''}`,
    'x-roles': roles,
    responses: {
      [String(route.status ?? 200)]: {
        description: 'Success',
        content: route.produces
          ? { [route.produces]: { schema: textSchema(route.produces) } }
          : { 'application/json': route.response ? { schema: answer(route.response) } : {} },
      },
      '4XX': failure(route, 'An error: `{msg}` (with field errors on a 400)', answer),
      ...Object.fromEntries(
        Object.entries(route.errors ?? {}).map(([status, description]) => [
          status,
          failure(route, description, answer),
        ]),
      ),
    },
  };
  if (parameters.length) op.parameters = parameters;
  // a session-only route takes a session token, never a key
  if (roles !== 'public') op.security = route.sessionOnly ? [{ bearer: [] }] : [{ bearer: [] }, { apiKey: [] }];
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

/** A refusal: the route's own `failure` body, else `{msg}` (the Error component). */
function failure(route: ApiRoute, description: string, answer: (schema: z.ZodType) => Schema): Schema {
  const schema = route.failure ? answer(route.failure) : ref('Error');
  return { description, content: { 'application/json': { schema } } };
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
      // the receiver checks the signature headers below; the delivery itself carries no credentials
      security: [],
      responses: {
        '2XX': { description: 'Delivered. Any other answer, or none within the timeout, is retried with backoff.' },
      },
    },
  };
}

/** The OpenAPI 3.1 document of every /api route, built from the route declarations (shared/src/api). */
export function buildOpenApi(routes: readonly ApiRoute[] = API_ROUTES): Schema {
  const answers = answerSchemas(routes);
  const paths: Record<string, Record<string, Schema>> = {};
  for (const route of routes) {
    paths[route.path] ??= {};
    paths[route.path][route.method] = operation(route, answers.of);
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
      schemas: answers.components,
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
