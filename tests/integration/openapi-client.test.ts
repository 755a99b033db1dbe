import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import openapiTS, { astToString } from 'openapi-typescript';
import request from 'supertest';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../core/src/logger';
import { createApp } from '../../server/src/app';
import { createTestDatabase } from '../support/db';
import { TEST_JWT_SECRET } from '../support/factories';

/**
 * Issue 20: a client generated from the served OpenAPI document is typed. The document passes
 * Redocly's recommended rules; openapi-typescript turns it into types; a small script written
 * against them (log in, list the WhatsApp accounts, read a template's count_use, start a blast,
 * read a refusal's `error`) compiles under strict TypeScript; and no operation's success answers
 * `unknown`. A copy of the document with login's answer taken out shows the check catches that.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let doc: OpenApi;
let dir: string;
/** A compiler host that parses the lib and package files once for both compiles; the files written here afresh. */
const parsed = new Map<string, ts.SourceFile | undefined>();
const host = ts.createCompilerHost({});
const readSource = host.getSourceFile.bind(host);
host.getSourceFile = (fileName, languageVersion, onError, fresh) => {
  if (!fileName.includes('/node_modules/')) return readSource(fileName, languageVersion, onError, fresh);
  if (!parsed.has(fileName)) parsed.set(fileName, readSource(fileName, languageVersion, onError, fresh));
  return parsed.get(fileName);
};

interface OpenApi {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, object> }> }>>;
}

beforeAll(async () => {
  database = await createTestDatabase();
  const app = createApp({
    db: database.db,
    jwtSecret: TEST_JWT_SECRET,
    logger: createLogger('silent'),
    dataDir: '/tmp',
  });
  const res = await request(app).get('/api/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body;
  dir = mkdtempSync(path.join(tmpdir(), 'wa-openapi-client-'));
  // the script imports openapi-fetch as a client project would, from the repository's packages
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
});
afterAll(async () => {
  await database.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/**
 * What a script does with the generated types: every property it reads is typed, so a response
 * documented as `unknown` (or with a field missing) does not compile.
 */
const SCRIPT = `import createClient from 'openapi-fetch';
import type { components, paths } from './api';

type Schemas = components['schemas'];

/** Logs in, picks a connected account, reads the templates' use and starts a blast on it. */
export async function blast(baseUrl: string, email: string, password: string): Promise<string> {
  const api = createClient<paths>({ baseUrl });
  const login = await api.POST('/auth/login', { body: { email, password } });
  if (!login.data) throw new Error(login.error.msg);
  const token: string = login.data.token;
  const role: 'member' | 'staff' | 'dev' | 'admin' | 'client' = login.data.user.role;
  const user: Schemas['User'] = login.data.user;
  const headers = { Authorization: \`Bearer \${token}\` };

  const accounts = await api.GET('/admin/whatsapp/list/{userId}', {
    headers,
    params: { path: { userId: user.id } },
  });
  if (!accounts.data) throw new Error(accounts.error.msg);
  const connected: Schemas['WhatsappAccount'] | undefined = accounts.data.list.find((a) => a.state === 'connected');
  if (!connected) return \`\${role}: no connected account\`;
  const deviceId: string = connected.clientid;
  const paused: string | null = connected.paused_until;

  const page = await api.GET('/admin/whatsapp/list-per-page', { headers, params: { query: { page: 1 } } });
  const pages: number = page.data?.meta.totalPages ?? 0;

  const templates = await api.GET('/admin/message/list', { headers });
  const used: number = (templates.data?.list ?? []).reduce((n: number, t: Schemas['MessageTemplate']) => n + t.count_use, 0);
  const one = await api.GET('/admin/message/{id}', { headers, params: { path: { id: 1 } } });
  const countUse: number | undefined = one.data?.message.count_use;

  const started = await api.POST('/admin/whatsapp/start-blasting', {
    headers,
    body: { whatsappClientId: deviceId },
  });
  if (started.error) {
    const why: string = started.error.error;
    return \`refused: \${why} (\${started.error.msg})\`;
  }
  const status: 'sending' | 'idle' = started.data.data.status;
  const sentToday: number = started.data.data.sent_today;
  return [status, sentToday, used, countUse, pages, paused].join(' ');
}
`;

/**
 * Lists, as a union of "method /path", every operation whose success answer is `unknown` (or has
 * no content at all); \`never\` when each one is typed.
 */
const UNTYPED = `import type { paths } from './api';

type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';
type Success = 200 | 201 | 202;
type Body<R> = R extends { content: infer C } ? C[keyof C] : unknown;
type SuccessBody<Op> = Op extends { responses: infer R } ? { [S in keyof R & Success]: Body<R[S]> }[keyof R & Success] : never;
type Untyped<Op, Name extends string> = [Op] extends [undefined] ? never : unknown extends SuccessBody<NonNullable<Op>> ? Name : never;

export type UntypedOperations = {
  [P in keyof paths]: { [M in Method]: Untyped<paths[P][M], \`\${M} \${P & string}\`> }[Method];
}[keyof paths];
`;

/** Redocly's errors (rule and where) under its recommended rules. */
async function lintErrors(document: object): Promise<string[]> {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({
    source: JSON.stringify(document),
    absoluteRef: path.join(dir, 'openapi.json'),
    config,
  });
  return problems
    .filter((p) => p.severity === 'error')
    .map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
}

/**
 * Writes the types openapi-typescript generates from `document` beside the two scripts in `sub`,
 * type-checks them strictly, and returns the compiler's errors and the untyped operations.
 */
async function compileAgainst(document: object, sub: string): Promise<{ errors: string[]; untyped: string }> {
  const at = path.join(dir, sub);
  const types = astToString(await openapiTS(document as Parameters<typeof openapiTS>[0]));
  // a declaration file: skipLibCheck spares checking the generated types themselves, only their use
  const files = { 'api.d.ts': types, 'script.ts': SCRIPT, 'untyped.ts': UNTYPED };
  mkdirSync(at);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(at, name), text);
  const program = ts.createProgram(
    Object.keys(files).map((f) => path.join(at, f)),
    {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
      types: [],
      skipLibCheck: true,
    },
    host,
  );
  const errors = ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) => `${d.file ? path.basename(d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    );
  const checker = program.getTypeChecker();
  const untypedFile = program.getSourceFile(path.join(at, 'untyped.ts'));
  let untyped = '(not found)';
  if (untypedFile) {
    for (const statement of untypedFile.statements) {
      if (ts.isTypeAliasDeclaration(statement) && statement.name.text === 'UntypedOperations') {
        untyped = checker.typeToString(
          checker.getTypeAtLocation(statement.name),
          undefined,
          ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.InTypeAlias,
        );
      }
    }
  }
  return { errors, untyped };
}

describe('a client generated from GET /api/openapi.json', () => {
  it('passes Redocly’s recommended rules with no error', async () => {
    expect(await lintErrors(doc)).toEqual([]);
    // the rules do bite: a webhook that says nothing of its security is an error
    const copy = structuredClone(doc) as OpenApi & { webhooks: Record<string, { post: { security?: unknown } }> };
    delete copy.webhooks['message.sent'].post.security;
    expect(await lintErrors(copy)).toEqual([expect.stringMatching(/^security-defined at #\/webhooks\/message\.sent/)]);
  });

  it('names the shared DTOs as components', () => {
    const names = Object.keys((doc as { components?: { schemas?: object } }).components?.schemas ?? {});
    expect(names).toEqual(
      expect.arrayContaining(['WhatsappAccount', 'MessageTemplate', 'LoginResponse', 'User', 'PagedWhatsappAccount']),
    );
  });

  it('types every operation’s answer, and a script written against it compiles', async () => {
    const { errors, untyped } = await compileAgainst(doc, 'served');
    expect(errors).toEqual([]);
    expect(untyped).toBe('never');
  });

  it('would not, were login’s answer undocumented', async () => {
    const copy = structuredClone(doc);
    copy.paths['/auth/login'].post.responses['200'].content = { 'application/json': {} };
    const { errors, untyped } = await compileAgainst(copy, 'untyped-login');
    expect(untyped).toBe('"post /auth/login"');
    // the script's reads of the login answer no longer compile
    expect(errors).toContain("script.ts: Property 'token' does not exist on type '{}'.");
  });
});
