import { AppError, notFound } from '@wa/core/errors';
import type { ImportFile } from '@wa/core/imports/records';
import { pageMeta, pageWindow } from '@wa/core/paging';
import {
  normalizeProxy,
  PAGE_SIZE,
  type ProxyDto,
  SKIPPED_GONE,
  type saveProxyBody,
  type updateProxyBody,
} from '@wa/shared';
import type { z } from 'zod';
import type { BulkOutcome } from '../../imports/bulk-import';
import type { BulkTarget } from '../../imports/bulk-target';
import type { SkippedStore } from '../../imports/skipped-store';
import type { ProxiesRepo } from './proxies.repo';

export type SaveProxyInput = z.output<typeof saveProxyBody>;
export type UpdateProxyInput = z.output<typeof updateProxyBody>;

const duplicate = (value: string) =>
  new AppError(409, `Proxy ${value} sudah terdaftar.`, { value: `Proxy ${value} sudah terdaftar.` });

/** How a proxy import reads and checks rows (§9: columns value,status). */
export const PROXY_IMPORT: BulkTarget = {
  table: 'proxies',
  key: 'value',
  columns: ['value', 'status'],
  label: 'proxy',
  normalize(fields) {
    const raw = fields.value ?? '';
    if (!raw) return { reason: 'Proxy is empty' };
    const value = normalizeProxy(raw);
    if (!value) return { reason: 'Not a proxy' };
    const status = (fields.status ?? '').toLowerCase();
    if (status && !['active', 'in use', 'nonactive'].includes(status)) {
      return { reason: 'Status must be active, in use or nonactive' };
    }
    return { values: [value, status || 'active'] };
  },
  toDto: (id, [value, status]) => ({ id, value, status, count_use: 0 }),
};

/** The rules of the proxy pool (§2 Proxies, §7 Settings and proxy). */
export class ProxiesService {
  /**
   * `importFile` runs the bulk importer with PROXY_IMPORT for a user (createApp gives it the
   * database and temp folder); `skipped` keeps the full skipped lists of the imports.
   */
  constructor(
    private readonly repo: ProxiesRepo,
    private readonly importFile: (file: ImportFile, owner: number) => Promise<BulkOutcome>,
    private readonly skipped: SkippedStore,
  ) {}

  /** Proxies after `afterId` in id order, a page at a time, for the list and the export. */
  after(afterId: number, limit = 5000): Promise<ProxyDto[]> {
    return this.repo.after(afterId, limit);
  }

  async listPerPage(page: number, search?: string) {
    const { total, data } = await this.repo.page({ ...pageWindow(page), search });
    return { data, meta: pageMeta(page, total, PAGE_SIZE) };
  }

  async get(id: number) {
    const proxy = await this.repo.find(id);
    if (!proxy) throw notFound('Proxy not found');
    return { proxy };
  }

  async save(input: SaveProxyInput) {
    const proxy = await this.repo.insert(input.value);
    if (!proxy) throw duplicate(input.value);
    return { proxy, msg: 'Proxy berhasil disimpan.' };
  }

  async update(id: number, input: UpdateProxyInput) {
    if (!(await this.repo.find(id))) throw notFound('Proxy not found');
    if (input.value) {
      const other = await this.repo.findByValue(input.value);
      if (other && other.id !== id) throw duplicate(input.value);
    }
    const proxy = await this.repo.update(id, input);
    if (!proxy) throw notFound('Proxy not found');
    return { proxy, msg: 'Proxy berhasil diperbarui.' };
  }

  /** Returns the deleted id (§4: the list removes the row by it). */
  async remove(id: number) {
    if (!(await this.repo.delete(id))) throw notFound('Proxy not found');
    return { id, msg: 'Proxy berhasil dihapus.' };
  }

  countUse() {
    return this.repo.countUse();
  }

  /** Imports a file for `owner` (§3 Import result); the full skipped list is theirs to download. */
  import(file: ImportFile, owner: number): Promise<BulkOutcome> {
    return this.importFile(file, owner);
  }

  /** The full skipped list of one of `owner`'s recent imports, as CSV (404 when gone or not theirs). */
  skippedList(owner: number, id: string) {
    const stream = this.skipped.open(owner, id);
    if (!stream) throw notFound(SKIPPED_GONE);
    return { stream, filename: 'proxies_skipped.csv' };
  }
}
