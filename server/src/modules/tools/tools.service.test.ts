import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ToolKind } from '@wa/core/db/tool-tables';
import { MemoryFileStore } from '@wa/core/files/memory-file-store';
import { InProcessBus } from '@wa/core/realtime/bus';
import { as, refused } from '@wa/core/testing/refusals';
import type { GeneratorDto, GeneratorInput, ToolResultRow, ValidatorDto } from '@wa/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GeneratorRange, ToolSettings, ValidatorUpload } from './tools.repo';
import { type ToolAccounts, ToolsService, type ToolsStore } from './tools.service';

type ToolDto = GeneratorDto | ValidatorDto;

/** A generator or validator table in memory: what ToolsRepo answers, without SQL. */
class MemoryTools implements ToolsStore {
  readonly rows = new Map<number, ToolDto>();
  private next = 1;

  constructor(private readonly kind: ToolKind) {}

  private common(id: number, userId: number, s: ToolSettings) {
    return {
      id,
      user_id: userId,
      whatsapp_id: s.whatsappId,
      b_insert: s.bInsert,
      interval_min: s.intervalMin,
      interval_max: s.intervalMax,
      count_success: 0,
      count_fail: 0,
      progress: 0,
      status: 'idle' as const,
      state: null,
      Whatsapp: null,
      createdAt: new Date(0).toISOString(),
    };
  }

  async find(id: number) {
    const row = this.rows.get(id);
    return row ? structuredClone(row) : null;
  }
  async page(filter: { userId?: number }, limit: number, offset: number) {
    const all = [...this.rows.values()].filter((t) => filter.userId === undefined || t.user_id === filter.userId);
    return { total: all.length, data: all.slice(offset, offset + limit) };
  }
  async insertGenerator(userId: number, s: ToolSettings, range: GeneratorRange) {
    const id = this.next++;
    this.rows.set(id, {
      ...this.common(id, userId, s),
      start_number: range.startNumber,
      end_number: range.endNumber,
      current_number: null,
    });
    return id;
  }
  async insertValidator(userId: number, s: ToolSettings, upload: ValidatorUpload) {
    const id = this.next++;
    this.rows.set(id, {
      ...this.common(id, userId, s),
      fileName: upload.fileName,
      fileUrl: `/api/admin/validator/file/${id}`,
      total: upload.total,
      position: 0,
    });
    return id;
  }
  async restartGenerator(id: number, s: ToolSettings, range: GeneratorRange) {
    const row = this.rows.get(id);
    if (row && 'start_number' in row) {
      Object.assign(row, this.common(id, row.user_id ?? 0, s), {
        start_number: range.startNumber,
        end_number: range.endNumber,
        current_number: null,
      });
    }
  }
  async restartValidator(id: number, s: ToolSettings) {
    const row = this.rows.get(id);
    if (row) Object.assign(row, this.common(id, row.user_id ?? 0, s), { position: 0 });
  }
  async startRun(id: number) {
    const row = this.rows.get(id);
    if (row?.status !== 'idle') return false;
    row.status = this.kind === 'generator' ? 'generating' : 'validating';
    return true;
  }
  async stopRun(id: number) {
    const row = this.rows.get(id);
    if (row) row.status = 'idle';
  }
  async delete(id: number) {
    return this.rows.delete(id);
  }
  async storedFile() {
    return null;
  }
  async results(): Promise<ToolResultRow[]> {
    return [];
  }
}

type Account = NonNullable<Awaited<ReturnType<ToolAccounts['byId']>>>;

class MemoryAccounts implements ToolAccounts {
  readonly rows = new Map<number, Account>();
  async byId(id: number) {
    return this.rows.get(id) ?? null;
  }
}

const STAFF = 1;
const ADMIN = 2;
const DEV = 3;
const MEMBER = 4;
const staff = as(STAFF, 'staff');
const admin = as(ADMIN, 'admin');
const dev = as(DEV, 'dev');
/** account id = its owner's id + 10 */
const accountOf = (userId: number) => userId + 10;

const range = (whatsappId: number, extra: Partial<GeneratorInput> = {}): GeneratorInput => ({
  start_number: '6281200000000',
  end_number: '6281200000009',
  whatsapp_id: whatsappId,
  b_insert: 0,
  interval_min: 1,
  interval_max: 2,
  ...extra,
});

let accounts: MemoryAccounts;
let generators: MemoryTools;
let generator: ToolsService;
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'wa-tools-'));
  accounts = new MemoryAccounts();
  for (const userId of [STAFF, ADMIN, DEV]) {
    accounts.rows.set(accountOf(userId), {
      userId,
      clientid: `client-${userId}`,
      phonenumber: `62812000000${userId}`,
      state: 'connected',
    });
  }
  generators = new MemoryTools('generator');
  generator = new ToolsService(generators, accounts, new InProcessBus(), 'generator', dir, new MemoryFileStore());
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('who may use the tools (§6: admin and staff their own, dev all)', () => {
  it('keeps each user’s generators to themselves; dev sees and lists them all', async () => {
    const { generator: mine } = await generator.createGenerator(staff, range(accountOf(STAFF)));
    expect(mine.user_id).toBe(STAFF);
    expect((await generator.get(staff, mine.id)).id).toBe(mine.id);
    expect((await generator.get(dev, mine.id)).id).toBe(mine.id);
    expect(await refused(generator.get(admin, mine.id))).toEqual({
      status: 403,
      msg: 'You are not allowed to do this.',
    });
    expect(await refused(generator.get(staff, 99))).toEqual({ status: 404, msg: 'Generator not found.' });
    // admin and staff list their own whatever user_id says; dev all, or one user's
    expect((await generator.listPerPage(admin, { page: 1, user_id: STAFF })).data).toEqual([]);
    expect((await generator.listPerPage(dev, { page: 1 })).meta.total).toBe(1);
    expect((await generator.listPerPage(dev, { page: 1, user_id: ADMIN })).meta.total).toBe(0);
  });

  it('members have no tools', async () => {
    const member = as(MEMBER, 'member');
    expect((await refused(generator.listPerPage(member, { page: 1 }))).status).toBe(403);
    expect((await refused(generator.createGenerator(member, range(accountOf(STAFF))))).status).toBe(403);
  });

  it('runs on the actor’s own WhatsApp account; dev on anyone’s', async () => {
    expect(await refused(generator.createGenerator(staff, range(accountOf(ADMIN))))).toEqual({
      status: 403,
      msg: 'This WhatsApp account is not yours.',
    });
    expect(await refused(generator.createGenerator(staff, range(99)))).toEqual({
      status: 400,
      msg: 'WhatsApp account not found.',
    });
    const { generator: g } = await generator.createGenerator(dev, range(accountOf(ADMIN)));
    expect(g).toMatchObject({ user_id: DEV, whatsapp_id: accountOf(ADMIN) });
  });
});

describe('editing and running a generator', () => {
  it('an edit needs it stopped, and starts it over', async () => {
    const { generator: g } = await generator.createGenerator(staff, range(accountOf(STAFF)));
    await generators.startRun(g.id);
    expect(await refused(generator.editable(staff, g.id))).toEqual({
      status: 409,
      msg: 'Stop the generator before editing it.',
    });
    expect((await refused(generator.editable(admin, g.id))).status).toBe(403);
    await generators.stopRun(g.id);
    const edited = await generator.updateGenerator(
      staff,
      g.id,
      range(accountOf(STAFF), { end_number: '6281200000004' }),
    );
    expect(edited.generator).toMatchObject({ end_number: '6281200000004', progress: 0, status: 'idle' });
  });

  it('refuses a start that cannot run before asking any worker', async () => {
    const { generator: g } = await generator.createGenerator(staff, range(accountOf(STAFF)));
    await generators.startRun(g.id);
    expect(await refused(generator.start(staff, g.id))).toEqual({ status: 409, msg: 'Generator is already running.' });
    await generators.stopRun(g.id);
    const row = generators.rows.get(g.id);
    if (row) row.progress = 100;
    expect(await refused(generator.start(staff, g.id))).toEqual({
      status: 400,
      msg: 'Generator has finished. Edit it to start over.',
    });
    if (row) row.progress = 50;
    const account = accounts.rows.get(accountOf(STAFF));
    if (account) account.state = 'disconnected';
    expect(await refused(generator.start(staff, g.id))).toEqual({
      status: 409,
      msg: `62812000000${STAFF} is disconnected`,
    });
    expect((await refused(generator.start(admin, g.id))).status).toBe(403);
    expect(generators.rows.get(g.id)?.status).toBe('idle');
  });
});

describe('validators', () => {
  function upload(name: string, text: string): Express.Multer.File {
    const file = path.join(dir, `stored-${name}`);
    writeFileSync(file, text);
    return {
      fieldname: 'file',
      originalname: name,
      encoding: '7bit',
      mimetype: 'text/csv',
      size: text.length,
      destination: dir,
      filename: path.basename(file),
      path: file,
      buffer: Buffer.alloc(0),
      stream: Readable.from([]),
    };
  }
  const fields = { whatsapp_id: accountOf(STAFF), b_insert: 1 as const, interval_min: 1, interval_max: 2 };

  it('counts the phone numbers of the file, and refuses one without any', async () => {
    const validators = new MemoryTools('validator');
    const files = new MemoryFileStore();
    const validator = new ToolsService(validators, accounts, new InProcessBus(), 'validator', dir, files);
    const file = upload('targets.csv', 'number,name\n081200000001,Ani\nnot a number,Budi\n6281200000002,\n');
    const { validator: v } = await validator.createValidator(staff, fields, file);
    expect(v).toMatchObject({ user_id: STAFF, fileName: 'targets.csv', total: 2, b_insert: 1 });
    // kept in the file store, where the worker holding the account reads it
    expect((await files.get('validator', file.filename))?.bytes.toString()).toContain('081200000001,Ani');
    expect(await refused(validator.createValidator(staff, fields, upload('empty.csv', 'number\nhello\n')))).toEqual({
      status: 400,
      msg: 'The file holds no phone numbers.',
    });
    expect(
      (await refused(validator.createValidator(staff, { ...fields, whatsapp_id: accountOf(DEV) }, file))).msg,
    ).toBe('This WhatsApp account is not yours.');
  });
});
