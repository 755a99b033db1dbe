import { createReadStream } from 'node:fs';
import path from 'node:path';
import type { Actor } from '@wa/core/actor';
import type { ToolKind } from '@wa/core/db/tool-tables';
import { AppError, badRequest, conflict, notFound } from '@wa/core/errors';
import { type FileStore, mimeOf, storedName } from '@wa/core/files/file-store';
import { readRecords } from '@wa/core/imports/records';
import { pageMeta, pageWindow } from '@wa/core/paging';
import { assertCan, canForAnyone } from '@wa/core/policy';
import type { EventBus } from '@wa/core/realtime/bus';
import { publishToOwnerAndAdmins } from '@wa/core/realtime/publish';
import { callDevice, NoHolderError } from '@wa/core/realtime/rpc';
import {
  type GeneratorDto,
  type GeneratorInput,
  normalizePhone,
  PAGE_SIZE,
  type ToolResultRow,
  type ValidatorDto,
  type ValidatorInput,
} from '@wa/shared';
import type { GeneratorRange, ToolSettings, ValidatorUpload } from './tools.repo';

const HOLDER_TIMEOUT_MS = 5_000;
const LABEL: Record<ToolKind, string> = { generator: 'Generator', validator: 'Validator' };

type ToolDto = GeneratorDto | ValidatorDto;

/** What the tool rules need of the generator or validator table (ToolsRepo; in memory in the unit tests). */
export interface ToolsStore {
  find(id: number): Promise<ToolDto | null>;
  page(
    filter: { userId?: number; search?: string },
    limit: number,
    offset: number,
  ): Promise<{ total: number; data: ToolDto[] }>;
  insertGenerator(userId: number, s: ToolSettings, range: GeneratorRange): Promise<number>;
  insertValidator(userId: number, s: ToolSettings, upload: ValidatorUpload): Promise<number>;
  restartGenerator(id: number, s: ToolSettings, range: GeneratorRange): Promise<void>;
  restartValidator(id: number, s: ToolSettings): Promise<void>;
  /** idle → running, false when it was not idle */
  startRun(id: number): Promise<boolean>;
  stopRun(id: number): Promise<void>;
  delete(id: number): Promise<boolean>;
  storedFile(id: number): Promise<{ fileName: string; stored: string } | null>;
  results(id: number): Promise<ToolResultRow[]>;
}

/** The WhatsApp accounts a tool may run on, as far as the tool rules look at them. */
export interface ToolAccounts {
  byId(
    id: number,
  ): Promise<{ userId: number; clientid: string; phonenumber: string | null; state: string | null } | null>;
}

const settingsOf = (b: ValidatorInput): ToolSettings => ({
  whatsappId: b.whatsapp_id,
  bInsert: b.b_insert,
  intervalMin: b.interval_min,
  intervalMax: b.interval_max,
});
const rangeOf = (b: GeneratorInput): GeneratorRange => ({ startNumber: b.start_number, endNumber: b.end_number });

/** A validator's upload as GET …/file/{id} sends it. */
export interface ValidatorFile {
  /** the file as stored */
  bytes: Buffer;
  /** for Content-Disposition */
  name: string;
  /** from the stored extension (only .csv and .json are taken), never from the browser's word */
  type: 'text/csv' | 'application/json';
}

/**
 * The upload's own name for the download, with control characters and path separators replaced:
 * they could split the header or suggest a folder. Empty names fall back to a neutral one.
 */
function downloadName(fileName: string, stored: string): string {
  const clean = Array.from(fileName, (c) =>
    c.charCodeAt(0) < 0x20 || c === '\x7f' || c === '/' || c === '\\' ? '_' : c,
  )
    .join('')
    .trim();
  return clean || `validator${path.extname(stored)}`;
}

/**
 * The rules of the generator and validator tools (§2, §5, §7): admin, staff and dev; dev sees and
 * runs every tool, the others their own (§6: they list with their own user id). A tool runs on
 * the worker that holds its WhatsApp account; the row's status is the switch it reads.
 */
export class ToolsService {
  constructor(
    private readonly repo: ToolsStore,
    private readonly accounts: ToolAccounts,
    private readonly bus: EventBus,
    readonly kind: ToolKind,
    /** where an uploaded validator file waits during its request, before it goes into `files` */
    readonly uploadDir: string,
    /**
     * where validator files are kept so that the worker holding the account reads them, whatever
     * its host (issue 19); no public route serves them, only GET …/file/{id}
     */
    private readonly files: FileStore,
  ) {}

  /** §6: dev lists every tool (or one user's); admin and staff their own, whatever they ask. */
  async listPerPage(actor: Actor, q: { page: number; user_id?: number; search?: string }) {
    assertCan(actor, 'tool.manage');
    const userId = canForAnyone(actor, 'tool.manage') ? q.user_id : actor.id;
    const { limit, offset } = pageWindow(q.page, PAGE_SIZE);
    const { total, data } = await this.repo.page({ userId, search: q.search }, limit, offset);
    return { data, meta: pageMeta(q.page, total, PAGE_SIZE) };
  }

  /** The tool, when the actor may see it. */
  async get(actor: Actor, id: number): Promise<ToolDto> {
    const tool = await this.repo.find(id);
    if (!tool) throw notFound(`${LABEL[this.kind]} not found.`);
    assertCan(actor, 'tool.manage', { userId: tool.user_id });
    return tool;
  }

  /** The tool when the actor may edit it now: theirs (any for dev) and stopped. */
  async editable(actor: Actor, id: number): Promise<ToolDto> {
    const tool = await this.get(actor, id);
    if (tool.status !== 'idle') throw conflict(`Stop the ${this.kind} before editing it.`);
    return tool;
  }

  /** The WhatsApp account a tool may run on: the actor's own (any for dev). */
  private async account(actor: Actor, whatsappId: number) {
    const acc = await this.accounts.byId(whatsappId);
    if (!acc) throw badRequest('WhatsApp account not found.', { whatsapp_id: 'WhatsApp account not found.' });
    assertCan(actor, 'tool.manage', { userId: acc.userId }, 'This WhatsApp account is not yours.');
    return acc;
  }

  async createGenerator(actor: Actor, b: GeneratorInput) {
    assertCan(actor, 'tool.manage');
    await this.account(actor, b.whatsapp_id);
    const id = await this.repo.insertGenerator(actor.id, settingsOf(b), rangeOf(b));
    return { generator: await this.get(actor, id), msg: 'Generator berhasil disimpan.' };
  }

  /** An edit starts the generator over. */
  async updateGenerator(actor: Actor, id: number, b: GeneratorInput) {
    await this.editable(actor, id);
    await this.account(actor, b.whatsapp_id);
    await this.repo.restartGenerator(id, settingsOf(b), rangeOf(b));
    return { generator: await this.get(actor, id), msg: 'Generator berhasil disimpan.' };
  }

  /** Counts the phone numbers of an uploaded file (CSV by header `number` or first column, or JSON). */
  private async countNumbers(file: Express.Multer.File): Promise<number> {
    const ext = path.extname(file.originalname).slice(1).toLowerCase();
    if (ext !== 'csv' && ext !== 'json') throw badRequest('Only .csv and .json files are accepted.');
    let total = 0;
    try {
      for await (const rec of readRecords(
        { name: file.originalname, ext, text: createReadStream(file.path, { encoding: 'utf8' }) },
        ['number', 'name'],
      )) {
        if (!rec.error && normalizePhone(rec.fields.number)) total++;
      }
    } catch (err) {
      throw badRequest(err instanceof Error ? err.message : 'The file could not be read.');
    }
    return total;
  }

  /** A validator over an uploaded file; the route removes the upload when this refuses it. */
  async createValidator(actor: Actor, b: ValidatorInput, file: Express.Multer.File) {
    assertCan(actor, 'tool.manage');
    await this.account(actor, b.whatsapp_id);
    const total = await this.countNumbers(file);
    if (!total) throw badRequest('The file holds no phone numbers.', { file: 'The file holds no phone numbers.' });
    const upload = { fileName: file.originalname, storedName: file.filename, total };
    // stored before the row points at it; a refused row takes it away again
    await this.files.put('validator', file.filename, createReadStream(file.path), mimeOf(file.filename));
    const id = await this.repo.insertValidator(actor.id, settingsOf(b), upload).catch(async (err: unknown) => {
      await this.files.remove('validator', file.filename);
      throw err;
    });
    return { validator: await this.get(actor, id), msg: 'Validator berhasil disimpan.' };
  }

  /** The file is not editable (§5); the settings are, and the check starts over. */
  async updateValidator(actor: Actor, id: number, b: ValidatorInput) {
    await this.editable(actor, id);
    await this.account(actor, b.whatsapp_id);
    await this.repo.restartValidator(id, settingsOf(b));
    return { validator: await this.get(actor, id), msg: 'Validator berhasil disimpan.' };
  }

  async remove(actor: Actor, id: number) {
    const tool = await this.get(actor, id);
    if (tool.status !== 'idle') await this.stop(actor, id);
    const stored = this.kind === 'validator' ? await this.repo.storedFile(id) : null;
    await this.repo.delete(id);
    const name = stored && storedName(stored.stored);
    if (name) await this.files.remove('validator', name);
    return { id, msg: `${LABEL[this.kind]} berhasil dihapus.` };
  }

  /**
   * GET …/file/{id}: the validator's uploaded file, for whoever may see the validator (admin and
   * staff their own, dev all), as the list's Target File link downloads it.
   */
  async file(actor: Actor, id: number): Promise<ValidatorFile> {
    if (this.kind !== 'validator') throw notFound();
    await this.get(actor, id);
    const stored = await this.repo.storedFile(id);
    if (!stored) throw notFound(`${LABEL[this.kind]} not found.`);
    // the file_url column names the stored file; a name that could climb out of it finds nothing
    const name = storedName(stored.stored);
    const file = name ? await this.files.get('validator', name) : null;
    if (!name || !file) throw notFound('Validator file not found.');
    return {
      bytes: file.bytes,
      name: downloadName(stored.fileName, name),
      type: path.extname(name).toLowerCase() === '.json' ? 'application/json' : 'text/csv',
    };
  }

  /** POST start: on a connected account, from where it stopped; its holder runs it. */
  async start(actor: Actor, id: number): Promise<{ data: ToolDto; msg: string }> {
    const tool = await this.get(actor, id);
    if (tool.status !== 'idle') throw conflict(`${LABEL[this.kind]} is already running.`);
    if (tool.progress >= 100) throw badRequest(`${LABEL[this.kind]} has finished. Edit it to start over.`);
    if (tool.whatsapp_id === null) throw badRequest('Choose a WhatsApp account first.');
    const acc = await this.accounts.byId(tool.whatsapp_id);
    if (!acc) throw badRequest('WhatsApp account not found.');
    const name = acc.phonenumber ?? acc.clientid;
    if (acc.state !== 'connected') throw conflict(`${name} is ${acc.state ?? 'unknown'}`);
    if (!(await this.repo.startRun(id))) {
      throw conflict(`${LABEL[this.kind]} is already running.`);
    }
    try {
      const r = await callDevice(
        this.bus,
        acc.clientid,
        'tool',
        { kind: this.kind, id, action: 'start', privileged: true },
        { timeoutMs: HOLDER_TIMEOUT_MS },
      );
      if (!r.ok) throw new AppError(r.status ?? 409, r.error);
    } catch (err) {
      await this.repo.stopRun(id);
      if (err instanceof NoHolderError) throw conflict(`${name} is disconnected`);
      throw err;
    }
    return { data: await this.get(actor, id), msg: `${LABEL[this.kind]} dimulai.` };
  }

  /** POST stop: the switch goes back to idle; the worker ends after the number in flight. */
  async stop(actor: Actor, id: number): Promise<{ data: ToolDto; msg: string }> {
    const tool = await this.get(actor, id);
    await this.repo.stopRun(id);
    const acc = tool.whatsapp_id === null ? null : await this.accounts.byId(tool.whatsapp_id);
    if (acc) {
      await callDevice(
        this.bus,
        acc.clientid,
        'tool',
        { kind: this.kind, id, action: 'stop', privileged: true },
        { timeoutMs: 2000 },
      ).catch(() => {});
    }
    const deviceId = acc?.clientid ?? null;
    const payload =
      this.kind === 'generator'
        ? { tool: 'generator' as const, deviceId, generatorId: id, status: 'idle' as const }
        : { tool: 'validator' as const, deviceId, validatorId: id, status: 'idle' as const };
    await publishToOwnerAndAdmins(this.bus, tool.user_id, 'stop', payload);
    return { data: await this.get(actor, id), msg: `${LABEL[this.kind]} dihentikan.` };
  }

  async downloadResult(actor: Actor, id: number): Promise<{ list: ToolResultRow[] }> {
    await this.get(actor, id);
    return { list: await this.repo.results(id) };
  }
}
