import { AppError, conflict, notFound } from '@wa/core/errors';
import type { ImportFile } from '@wa/core/imports/records';
import { pageMeta, pageWindow } from '@wa/core/paging';
import {
  normalizePhone,
  OPTOUT_LOCKED,
  PAGE_SIZE,
  PHONE_STATUSES,
  type PhoneNumberDto,
  type PhoneStatus,
  type ReceiverDto,
  SKIPPED_GONE,
  type savePhoneNumberBody,
  type updatePhoneNumberBody,
} from '@wa/shared';
import type { z } from 'zod';
import type { BulkOutcome } from '../../imports/bulk-import';
import type { BulkTarget } from '../../imports/bulk-target';
import type { SkippedStore } from '../../imports/skipped-store';
import type { PhoneNumbersRepo } from './phone-numbers.repo';

export type SavePhoneNumberInput = z.output<typeof savePhoneNumberBody>;
export type UpdatePhoneNumberInput = z.output<typeof updatePhoneNumberBody>;

const duplicate = (number: string) =>
  new AppError(409, `Nomor ${number} sudah terdaftar.`, { number: `Nomor ${number} sudah terdaftar.` });

/**
 * How a phone-number import reads and checks rows (§9: columns number,name,status): into the
 * default pool, a duplicate only of a number the pool holds (a campaign's targets are its own).
 */
export const PHONE_IMPORT: BulkTarget = {
  table: 'phone_numbers',
  key: 'number',
  columns: ['number', 'name', 'status'],
  label: 'phone number',
  scope: { column: 'campaign_id', value: null },
  normalize(fields) {
    const raw = fields.number ?? '';
    if (!raw) return { reason: 'Number is empty' };
    const number = normalizePhone(raw);
    if (!number) return { reason: 'Not a phone number' };
    const name = (fields.name ?? '').slice(0, 255);
    const status = (fields.status ?? '').toLowerCase();
    // an opted-out number moved from another installation stays opted out
    if (status && !(PHONE_STATUSES as readonly string[]).includes(status)) {
      return { reason: `Status must be active, nonactive or optout` };
    }
    return { values: [number, name, status || 'active'] };
  },
  toDto: (id, [number, name, status]) => ({
    id,
    number,
    name,
    status,
    in_use: 0,
    count_success: 0,
    count_fail: 0,
    last_sent: null,
  }),
  // number and status are digits and fixed words; only the name needs escaping
  toJson: (id, [number, name, status]) =>
    `{"id":${id},"number":"${number}","name":${JSON.stringify(name)},"status":"${status}","in_use":0,"count_success":0,"count_fail":0,"last_sent":null}`,
};

/** The rules of the target-number list (§2 Phone numbers, §7 Phone numbers). */
export class PhoneNumbersService {
  /**
   * `importFile` runs the bulk importer with PHONE_IMPORT for a user (createApp gives it the
   * database and temp folder); `skipped` keeps the full skipped lists of the imports.
   */
  constructor(
    private readonly repo: PhoneNumbersRepo,
    private readonly importFile: (file: ImportFile, owner: number) => Promise<BulkOutcome>,
    private readonly skipped: SkippedStore,
  ) {}

  /** Numbers after `afterId` in id order, a page at a time, for the streamed list and the export. */
  after(afterId: number, limit = 5000): Promise<PhoneNumberDto[]> {
    return this.repo.after(afterId, limit);
  }

  async listPerPage(page: number, search?: string, status?: PhoneStatus) {
    const { total, data } = await this.repo.page({ ...pageWindow(page), search, status });
    return { data, meta: pageMeta(page, total, PAGE_SIZE) };
  }

  async get(id: number): Promise<{ phoneNumber: PhoneNumberDto }> {
    const phoneNumber = await this.repo.find(id);
    if (!phoneNumber) throw notFound('Phone number not found');
    return { phoneNumber };
  }

  async save(input: SavePhoneNumberInput) {
    const phoneNumber = await this.repo.insert(input.number, input.name);
    if (!phoneNumber) throw duplicate(input.number);
    return { phoneNumber, msg: 'Nomor berhasil disimpan.' };
  }

  async update(id: number, input: UpdatePhoneNumberInput) {
    const current = await this.repo.find(id);
    if (!current) throw notFound('Phone number not found');
    if (current.status === 'optout' && input.status !== undefined) throw conflict(OPTOUT_LOCKED);
    if (input.number) {
      const other = await this.repo.findByNumber(input.number);
      if (other && other.id !== id) throw duplicate(input.number);
    }
    try {
      const phoneNumber = await this.repo.update(id, input);
      if (!phoneNumber) throw notFound('Phone number not found');
      return { phoneNumber, msg: 'Nomor berhasil diperbarui.' };
    } catch (err) {
      if ((err as { code?: string }).code === '23505' && input.number) throw duplicate(input.number);
      throw err;
    }
  }

  async remove(id: number) {
    if (!(await this.repo.delete(id))) throw notFound('Phone number not found');
    return { id, msg: 'Nomor berhasil dihapus.' };
  }

  /**
   * GET receivers (member, admin, dev): the active numbers the blaster form may send to, searchable
   * and capped. Only id, number and name: a member needs those to pick and to fill {name}, not the
   * list's counts, dates or the inactive numbers.
   */
  async receivers(q: { search?: string; limit: number }): Promise<{ list: ReceiverDto[] }> {
    return { list: await this.repo.receivers({ search: q.search || undefined, limit: q.limit }) };
  }

  countBlast() {
    return this.repo.countBlast();
  }

  /** Imports a file for `owner` (§3 Import result); the full skipped list is theirs to download. */
  import(file: ImportFile, owner: number): Promise<BulkOutcome> {
    return this.importFile(file, owner);
  }

  /** The full skipped list of one of `owner`'s recent imports, as CSV (404 when gone or not theirs). */
  skippedList(owner: number, id: string) {
    const stream = this.skipped.open(owner, id);
    if (!stream) throw notFound(SKIPPED_GONE);
    return { stream, filename: 'phone_numbers_skipped.csv' };
  }
}
