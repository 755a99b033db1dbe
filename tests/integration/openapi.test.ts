import { API_ROUTES, type ApiRoute, WEBHOOK_EVENTS } from '@wa/shared';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../core/src/logger';
import { createApp } from '../../server/src/app';
import { DECLARED } from '../../server/src/http/route';
import { buildOpenApi } from '../../server/src/modules/docs/openapi';
import { createTestDatabase } from '../support/db';
import { TEST_JWT_SECRET } from '../support/factories';

/** Issue 13: the OpenAPI document, its Swagger UI, and that no /api route goes undocumented. */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  database = await createTestDatabase();
  app = createApp({ db: database.db, jwtSecret: TEST_JWT_SECRET, logger: createLogger('silent'), dataDir: '/tmp' });
});
afterAll(async () => {
  await database.close();
});

/** What this test reads of Express 5's router (the `router` package): layers, routes, sub-routers. */
interface Layer {
  /** the path the layer was declared with (app.use('/api', …), r.get('/:id', …)) */
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean>; stack: Layer[] };
  handle?: { stack?: Layer[]; [DECLARED]?: ApiRoute; ability?: string };
}

const join = (a: string, b: string) => `${a}/${b}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');

/** Every `METHOD /path` the app answers, walking the router stack and its mounted routers. */
function expressRoutes(stack: Layer[], prefix = ''): string[] {
  const out: string[] = [];
  for (const layer of stack) {
    if (layer.route) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      for (const p of paths) {
        if (typeof p !== 'string') throw new Error(`A route with a non-string path under ${prefix}: ${String(p)}`);
        for (const [method, on] of Object.entries(layer.route.methods)) {
          if (on && method !== '_all') out.push(`${method.toUpperCase()} ${join(prefix, p)}`);
        }
      }
    } else if (layer.handle?.stack) {
      const mount = layer.rawPath ?? '/';
      if (typeof mount !== 'string') throw new Error(`A router mounted on a non-string path under ${prefix}`);
      out.push(...expressRoutes(layer.handle.stack, join(prefix, mount)));
    }
  }
  return out;
}

/** One Express route under /api: where it answers, the declaration it was bound from, the abilities it asks. */
interface Bound {
  route: string;
  declared?: ApiRoute;
  abilities: string[];
}

/** Every route Express has under /api, with what `bind` left on its handlers. */
function boundRoutes(stack: Layer[], prefix = ''): Bound[] {
  const out: Bound[] = [];
  for (const layer of stack) {
    if (layer.route && typeof layer.route.path === 'string') {
      const handles = layer.route.stack.map((l) => l.handle);
      const declared = handles.map((h) => h?.[DECLARED]).find(Boolean);
      const abilities = handles.map((h) => h?.ability).filter((a): a is string => typeof a === 'string');
      for (const [method, on] of Object.entries(layer.route.methods)) {
        if (!on || method === '_all') continue;
        const path =
          join(prefix, layer.route.path)
            .replace(/^\/api(?=\/|$)/, '')
            .replace(/:(\w+)/g, '{$1}') || '/';
        if (join(prefix, layer.route.path).match(/^\/api(\/|$)/))
          out.push({ route: `${method.toUpperCase()} ${path}`, declared, abilities });
      }
    } else if (layer.handle?.stack && typeof (layer.rawPath ?? '/') === 'string') {
      out.push(...boundRoutes(layer.handle.stack, join(prefix, (layer.rawPath as string | undefined) ?? '/')));
    }
  }
  return out;
}

/** The app's /api routes, in the registry's form: `GET /admin/whatsapp/{id}`. */
function apiRoutes(): string[] {
  const stack = (app as unknown as { router: { stack: Layer[] } }).router.stack;
  const all = expressRoutes(stack);
  return all
    .filter((r) => / \/api(\/|$)/.test(r))
    .map((r) =>
      r
        .replace(' /api', ' ')
        .replace(/ $/, ' /')
        .replace(/:(\w+)/g, '{$1}'),
    )
    .map((r) => r.replace('  ', ' '));
}

const documented = new Set(API_ROUTES.map((r) => `${r.method.toUpperCase()} ${r.path}`));

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 with every operation naming its roles, and security unless public', () => {
    const doc = buildOpenApi() as {
      openapi: string;
      paths: Record<string, Record<string, { 'x-roles': unknown; security: unknown[] }>>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiKey', 'bearer']);
    const ops = Object.values(doc.paths).flatMap((p) => Object.values(p));
    expect(ops.length).toBe(API_ROUTES.length);
    for (const op of ops) {
      expect(op['x-roles']).toBeDefined();
      if (op['x-roles'] !== 'public') expect(op.security.length).toBeGreaterThan(0);
    }
    expect(doc.paths['/admin/whatsapp/{id}'].get['x-roles']).toEqual(['member', 'staff', 'dev', 'admin']);
    expect(doc.paths['/dev/monitor/local'].get['x-roles']).toEqual(['dev']);
    expect(doc.paths['/auth/login'].post['x-roles']).toBe('public');
  });

  it("describes every webhook event's POST: the signed headers and the envelope with the event's data", () => {
    interface Hook {
      post: {
        parameters: Array<{ name: string; in: string; required: boolean }>;
        requestBody: { content: { 'application/json': { schema: JsonObject } } };
      };
    }
    interface JsonObject {
      properties: Record<string, JsonObject & { const?: string }>;
      required: string[];
    }
    const doc = buildOpenApi() as { webhooks: Record<string, Hook> };
    expect(Object.keys(doc.webhooks).sort()).toEqual([...WEBHOOK_EVENTS].sort());
    for (const event of WEBHOOK_EVENTS) {
      const { post } = doc.webhooks[event];
      const headers = post.parameters.filter((p) => p.in === 'header' && p.required).map((p) => p.name);
      expect(headers.sort(), event).toEqual(['X-WA-Delivery', 'X-WA-Event', 'X-WA-Signature', 'X-WA-Timestamp']);
      const body = post.requestBody.content['application/json'].schema;
      expect(body.required.sort(), event).toEqual(['created_at', 'data', 'event', 'id']);
      expect(body.properties.event.const).toBe(event);
    }
    const data = (event: string) =>
      doc.webhooks[event].post.requestBody.content['application/json'].schema.properties.data;
    expect(data('message.sent').required).toEqual(
      expect.arrayContaining(['target', 'message_id', 'account_id', 'fee']),
    );
    expect(Object.keys(data('account.suspended').properties)).toEqual(expect.arrayContaining(['kind', 'paused_until']));
    expect(data('withdraw.status').required).toEqual(expect.arrayContaining(['withdraw_id', 'status']));
  });

  it("states each success's status and, where a script reads it, the answer's fields", () => {
    interface Schema {
      $ref?: string;
      required?: string[];
      additionalProperties?: boolean;
    }
    interface Answer {
      content: Record<string, { schema?: Schema }>;
    }
    const doc = buildOpenApi() as {
      paths: Record<string, Record<string, { responses: Record<string, Answer> }>>;
      components: { schemas: Record<string, Schema> };
    };
    // a named schema stands for the component it refers to
    const deref = (schema: Schema | undefined) =>
      schema?.$ref ? doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema;
    const answer = (method: string, path: string) => {
      const [status, ...more] = Object.keys(doc.paths[path][method].responses).filter((s) => s.startsWith('2'));
      expect(more, `${method} ${path} has one success`).toEqual([]);
      return { status, schema: deref(doc.paths[path][method].responses[status].content['application/json']?.schema) };
    };
    expect(answer('post', '/admin/apikeys').status).toBe('201');
    expect(answer('post', '/admin/apikeys').schema?.required).toEqual(expect.arrayContaining(['id', 'key']));
    expect(answer('post', '/admin/webhooks').schema?.required).toEqual(expect.arrayContaining(['id', 'secret']));
    expect(answer('post', '/admin/webhooks/{id}/deliveries/{deliveryId}/resend').status).toBe('202');
    expect(answer('post', '/admin/whatsapp/save').status).toBe('201');
    expect(answer('get', '/admin/messagelog/list-per-page').schema?.required).toEqual(['data', 'meta']);
    // an answer holds the documented fields and no others
    expect(answer('get', '/admin/whatsapp/client-state/{deviceId}').schema?.additionalProperties).toBe(false);
    expect(answer('get', '/admin/phonenumber/export').schema).toBeUndefined();
    expect(answer('post', '/auth/login').schema?.required).toEqual(expect.arrayContaining(['token', 'user']));
  });

  it('gives every operation a typed answer: JSON by its schema, text and files as strings (issue 20)', () => {
    interface Op {
      responses: Record<string, { content?: Record<string, { schema?: { type?: string; format?: string } }> }>;
    }
    const doc = buildOpenApi() as { paths: Record<string, Record<string, Op>> };
    const untyped: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const [status, response] of Object.entries(op.responses)) {
          const contents = Object.entries(response.content ?? {});
          if (!contents.length || contents.some(([, c]) => !c.schema)) untyped.push(`${method} ${path} ${status}`);
          for (const [type, c] of contents) {
            if (type !== 'application/json') expect(c.schema?.type, `${method} ${path} ${type}`).toBe('string');
          }
        }
      }
    }
    expect(untyped, 'answers without a schema').toEqual([]);
    const content = (path: string, method = 'get') => doc.paths[path][method].responses['200'].content ?? {};
    expect(content('/admin/phonenumber/export')['text/csv'].schema).toEqual({ type: 'string' });
    expect(content('/admin/validator/file/{id}')['application/octet-stream'].schema).toEqual({
      type: 'string',
      format: 'binary',
    });
    expect(content('/docs')['text/html'].schema).toEqual({ type: 'string' });
  });

  it('documents the refusals of the actions that start or stop work as {msg, error} (issue 20)', () => {
    const doc = buildOpenApi() as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content: Record<string, { schema: unknown }> }> }>
      >;
      components: { schemas: Record<string, { required?: string[] }> };
    };
    const refusal = (method: string, path: string) =>
      doc.paths[path][method].responses['4XX'].content['application/json'].schema;
    const actions: [string, string][] = [
      ['post', '/admin/whatsapp/start-blasting'],
      ['post', '/admin/whatsapp/stop-blasting'],
      ['post', '/admin/bonus/create'],
      ['post', '/admin/generator/start'],
      ['post', '/admin/generator/stop'],
      ['post', '/admin/validator/start'],
      ['post', '/admin/validator/stop'],
    ];
    for (const [method, path] of actions) {
      expect(refusal(method, path), `${method} ${path}`).toEqual({ $ref: '#/components/schemas/ActionError' });
    }
    expect(doc.components.schemas.ActionError.required?.sort()).toEqual(['error', 'msg']);
    expect(refusal('post', '/admin/whatsapp/save')).toEqual({ $ref: '#/components/schemas/Error' });
    expect(doc.components.schemas.Error.required).toEqual(['msg']);
  });

  it('has no route declared twice', () => {
    expect(documented.size).toBe(API_ROUTES.length);
  });

  it('documents every route Express has under /api, and nothing that is not there', () => {
    const actual = apiRoutes();
    // the walk really sees the routers: a sample from each kind of mount
    expect(actual).toEqual(
      expect.arrayContaining([
        'GET /health',
        'GET /openapi.json',
        'DELETE /admin/apikeys/{id}',
        'POST /admin/webhooks/{id}/deliveries/{deliveryId}/resend',
        'POST /dev/sim/{deviceId}',
      ]),
    );
    const undocumented = [...new Set(actual)].filter((r) => !documented.has(r));
    expect(undocumented, 'routes without a declaration in shared/src/api').toEqual([]);
    const stale = [...documented].filter((r) => !actual.includes(r));
    expect(stale, 'declarations with no such route').toEqual([]);
  });
});

describe('one declaration per route (issue 21)', () => {
  const bound = () => boundRoutes((app as unknown as { router: { stack: Layer[] } }).router.stack);

  it('binds every /api route Express has from a declaration: none by hand', () => {
    const byHand = bound()
      .filter((b) => !b.declared)
      .map((b) => b.route);
    expect(byHand).toEqual([]);
  });

  it('binds each declared route once, at its own path, behind the guard of its own ability', () => {
    const all = bound();
    for (const decl of API_ROUTES) {
      const key = `${decl.method.toUpperCase()} ${decl.path}`;
      const here = all.filter((b) => b.declared === decl);
      expect(
        here.map((b) => b.route),
        key,
      ).toEqual([key]);
      const guard = decl.access === 'public' || decl.access === 'signed-in' ? [] : [decl.access];
      expect(here[0].abilities, key).toEqual(guard);
    }
  });

  it('builds the document from the very same declarations the router was bound from', () => {
    const doc = buildOpenApi() as { paths: Record<string, Record<string, { summary: string; tags: string[] }>> };
    for (const b of bound().filter((x) => x.declared)) {
      const d = b.declared as ApiRoute;
      const op = doc.paths[d.path]?.[d.method];
      expect(op, b.route).toBeDefined();
      expect(op.summary, b.route).toBe(d.summary);
      expect(op.tags, b.route).toEqual([d.tag]);
    }
  });
});

describe('GET /api/openapi.json and /api/docs', () => {
  it('serves the document without a token', async () => {
    const res = await request(app).get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/json');
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.servers).toEqual([{ url: '/api' }]);
  });

  it('serves Swagger UI from local assets only, under a CSP without inline script', async () => {
    const res = await request(app).get('/api/docs');
    expect(res.status).toBe(200);
    expect(res.type).toBe('text/html');
    expect(res.text).not.toMatch(/https?:\/\//);
    expect(res.text).not.toMatch(/<script>/);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    const srcs = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(srcs.length).toBeGreaterThan(3);
    for (const src of srcs) {
      expect(src.startsWith('/api/')).toBe(true);
      const asset = await request(app).get(src);
      expect(asset.status, src).toBe(200);
    }
  });
});
