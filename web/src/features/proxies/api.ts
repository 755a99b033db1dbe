import { type BodyIn, PROXIES } from '@wa/shared';
import { request, requestForm, urlOf } from '../../api/client';

export const proxiesApi = {
  page: (page: number) => request(PROXIES.page, { query: { page }, fallback: 'Error fetching Proxy list' }),
  get: (id: number) => request(PROXIES.get, { params: { id }, fallback: 'Error fetching Proxy' }),
  save: (value: BodyIn<typeof PROXIES.save>['value']) =>
    request(PROXIES.save, { body: { value }, fallback: 'Error saving Proxy' }),
  update: (id: number, body: BodyIn<typeof PROXIES.update>) =>
    request(PROXIES.update, { params: { id }, body, fallback: 'Error updating Proxy' }),
  remove: (id: number) => request(PROXIES.remove, { params: { id }, fallback: 'Error deleting Proxy' }),
  /** the export's download address */
  exportUrl: (format: 'csv' | 'json') => `/api${urlOf(PROXIES.export, { query: { format } })}`,
  /** the import card's upload (multipart field `file`) */
  import: (form: FormData) => requestForm(PROXIES.import, form, { fallback: 'Error importing File' }),
  /** the full skipped list of an import (CSV, kept an hour) */
  skippedUrl: (id: string) => `/api${urlOf(PROXIES.skipped, { params: { id } })}`,
};
