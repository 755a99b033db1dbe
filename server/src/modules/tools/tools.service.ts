import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import {
  type GeneratorDto,
  generatorBody,
  normalizePhone,
  PAGE_SIZE,
  type Role,
  type ToolResultRow,
  toolIdBody,
  type ValidatorDto,
  validatorFields,
} from '@wa/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Actor } from '../../http/auth';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors';
import { pageMeta, pageWindow } from '../../http/paging';
import { parse } from '../../http/validate';
import { readRecords } from '../../imports/records';
import type { EventBus } from '../../realtime/bus';
import { publishToAdmins, publishToUser } from '../../realtime/publish';
import { callDevice, NoHolderError } from '../../realtime/rpc';
import { WhatsappRepo } from '../whatsapp/whatsapp.repo';
import { RUNNING, type ToolKind, ToolsRepo } from './tools.repo';

export const VALIDATOR_FILE_URL = '/uploads/validators/';
const HOLDER_TIMEOUT_MS = 5_000;
const LABEL: Record<ToolKind, string> = { generator: 'Generator', validator: 'Validator' };

type ToolDto = GeneratorDto | ValidatorDto;

/**
 * The rules of the generator and validator tools (§2, §5, §7): admin, staff and dev; dev sees and
 * runs every tool, the others their own (§6: they list with their own user id). A tool runs on
 * the worker that holds its WhatsApp account; the row's status is the switch it reads.
 */
export class ToolsService {
  readonly repo: ToolsRepo;
  private readonly accounts: WhatsappRepo;

  constructor(
    db: Db,
    private readonly bus: EventBus,
    readonly kind: ToolKind,
    /** where validator files are stored (DATA_DIR/uploads/validators) */
    readonly fileDir: string,
  ) {
    this.repo = new ToolsRepo(db, kind);
    this.accounts = new WhatsappRepo(db);
  }

  private seesAll = (a: Actor) => a.role === ('dev' as Role);

  async listPerPage(actor: Actor, q: { page: number; user_id?: number; search?: string }) {
    const userId = this.seesAll(actor) ? q.user_id : actor.id;
    const { limit, offset } = pageWindow(q.page, PAGE_SIZE);
    const { total, data } = await this.repo.page({ userId, search: q.search }, limit, offset);
    return { data, meta: pageMeta(q.page, total, PAGE_SIZE) };
  }

  /** The tool, when the actor may see it. */
  async get(actor: Actor, id: number): Promise<ToolDto> {
    const tool = await this.repo.find(id);
    if (!tool) throw notFound(`${LABEL[this.kind]} not found.`);
    if (!this.seesAll(actor) && tool.user_id !== actor.id) throw forbidden();
    return tool;
  }

  /** The WhatsApp account a tool may run on: the actor's own (any for dev). */
  private async account(actor: Actor, whatsappId: number) {
    const acc = await this.accounts.byId(whatsappId);
    if (!acc) throw badRequest('WhatsApp account not found.', { whatsapp_id: 'WhatsApp account not found.' });
    if (acc.userId !== actor.id && !this.seesAll(actor)) throw forbidden('This WhatsApp account is not yours.');
    return acc;
  }

  async createGenerator(actor: Actor, body: unknown) {
    const b = parse(generatorBody, body ?? {});
    await this.account(actor, b.whatsapp_id);
    const id =
      await this.repo.insert(sql`(user_id, whatsapp_id, start_number, end_number, b_insert, interval_min, interval_max)
      values (${actor.id}, ${b.whatsapp_id}, ${b.start_number}, ${b.end_number}, ${b.b_insert}, ${b.interval_min}, ${b.interval_max})`);
    return { generator: await this.get(actor, id), msg: 'Generator berhasil disimpan.' };
  }

  async updateGenerator(actor: Actor, id: number, body: unknown) {
    const current = await this.get(actor, id);
    if (current.status !== 'idle') throw conflict('Stop the generator before editing it.');
    const b = parse(generatorBody, body ?? {});
    await this.account(actor, b.whatsapp_id);
    await this.repo.restart(
      id,
      sql`whatsapp_id = ${b.whatsapp_id}, start_number = ${b.start_number}, end_number = ${b.end_number},
          b_insert = ${b.b_insert}, interval_min = ${b.interval_min}, interval_max = ${b.interval_max},
          current_number = null`,
    );
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

  async createValidator(actor: Actor, body: unknown, file: Express.Multer.File | undefined) {
    try {
      if (!file) throw badRequest('File is required.', { file: 'File is required.' });
      const b = parse(validatorFields, body ?? {});
      await this.account(actor, b.whatsapp_id);
      const total = await this.countNumbers(file);
      if (!total) throw badRequest('The file holds no phone numbers.', { file: 'The file holds no phone numbers.' });
      const id =
        await this.repo.insert(sql`(user_id, whatsapp_id, b_insert, interval_min, interval_max, file_name, file_url, total)
        values (${actor.id}, ${b.whatsapp_id}, ${b.b_insert}, ${b.interval_min}, ${b.interval_max},
                ${file.originalname}, ${`${VALIDATOR_FILE_URL}${file.filename}`}, ${total})`);
      return { validator: await this.get(actor, id), msg: 'Validator berhasil disimpan.' };
    } catch (err) {
      if (file) await rm(file.path, { force: true });
      throw err;
    }
  }

  /** The file is not editable (§5); the settings are, and the check starts over. */
  async updateValidator(actor: Actor, id: number, body: unknown, file: Express.Multer.File | undefined) {
    if (file) await rm(file.path, { force: true });
    const current = await this.get(actor, id);
    if (current.status !== 'idle') throw conflict('Stop the validator before editing it.');
    const b = parse(validatorFields, body ?? {});
    await this.account(actor, b.whatsapp_id);
    await this.repo.restart(
      id,
      sql`whatsapp_id = ${b.whatsapp_id}, b_insert = ${b.b_insert}, interval_min = ${b.interval_min},
          interval_max = ${b.interval_max}, position = 0`,
    );
    return { validator: await this.get(actor, id), msg: 'Validator berhasil disimpan.' };
  }

  async remove(actor: Actor, id: number) {
    const tool = await this.get(actor, id);
    if (tool.status !== 'idle') await this.stop(actor, { id });
    await this.repo.delete(id);
    if ('fileUrl' in tool) await rm(path.join(this.fileDir, path.basename(tool.fileUrl)), { force: true });
    return { id, msg: `${LABEL[this.kind]} berhasil dihapus.` };
  }

  /** POST start: on a connected account, from where it stopped; its holder runs it. */
  async start(actor: Actor, body: unknown): Promise<{ data: ToolDto; msg: string }> {
    const { id } = parse(toolIdBody, body ?? {});
    const tool = await this.get(actor, id);
    if (tool.status !== 'idle') throw conflict(`${LABEL[this.kind]} is already running.`);
    if (tool.progress >= 100) throw badRequest(`${LABEL[this.kind]} has finished. Edit it to start over.`);
    if (tool.whatsapp_id === null) throw badRequest('Choose a WhatsApp account first.');
    const acc = await this.accounts.byId(tool.whatsapp_id);
    if (!acc) throw badRequest('WhatsApp account not found.');
    const name = acc.phonenumber ?? acc.clientid;
    if (acc.state !== 'connected') throw conflict(`${name} is ${acc.state ?? 'unknown'}`);
    const running = RUNNING[this.kind];
    if (!(await this.repo.update(id, sql`status = ${running}, state = null`, sql`status = 'idle'`))) {
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
      await this.repo.update(id, sql`status = 'idle'`);
      if (err instanceof NoHolderError) throw conflict(`${name} is disconnected`);
      throw err;
    }
    return { data: await this.get(actor, id), msg: `${LABEL[this.kind]} dimulai.` };
  }

  /** POST stop: the switch goes back to idle; the worker ends after the number in flight. */
  async stop(actor: Actor, body: unknown): Promise<{ data: ToolDto; msg: string }> {
    const { id } = parse(toolIdBody, body ?? {});
    const tool = await this.get(actor, id);
    await this.repo.update(id, sql`status = 'idle'`);
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
    const key = this.kind === 'generator' ? 'generatorId' : 'validatorId';
    const payload = { deviceId: acc?.clientid ?? null, [key]: id, status: 'idle' };
    if (tool.user_id !== null) await publishToUser(this.bus, tool.user_id, 'stop', payload);
    await publishToAdmins(this.bus, 'stop', payload);
    return { data: await this.get(actor, id), msg: `${LABEL[this.kind]} dihentikan.` };
  }

  async downloadResult(actor: Actor, id: number): Promise<{ list: ToolResultRow[] }> {
    await this.get(actor, id);
    return { list: await this.repo.results(id) };
  }
}
