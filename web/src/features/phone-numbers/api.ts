import { type BodyIn, PHONE_NUMBERS, type PhoneStatus } from '@wa/shared';
import { request, requestForm, urlOf } from '../../api/client';

export const phoneNumbersApi = {
  page: (page: number, search: string, status?: PhoneStatus) =>
    request(PHONE_NUMBERS.page, { query: { page, search, status }, fallback: 'Error fetching Phone Number list' }),
  get: (id: number) => request(PHONE_NUMBERS.get, { params: { id }, fallback: 'Error fetching Phone Number' }),
  save: (body: BodyIn<typeof PHONE_NUMBERS.save>) =>
    request(PHONE_NUMBERS.save, { body, fallback: 'Error saving Phone Number' }),
  update: (id: number, body: BodyIn<typeof PHONE_NUMBERS.update>) =>
    request(PHONE_NUMBERS.update, { params: { id }, body, fallback: 'Error updating Phone Number' }),
  remove: (id: number) => request(PHONE_NUMBERS.remove, { params: { id }, fallback: 'Error deleting Phone Number' }),
  /** the export's download address */
  exportUrl: (format: 'csv' | 'json') => `/api${urlOf(PHONE_NUMBERS.export, { query: { format } })}`,
  /** the import card's upload (multipart field `file`) */
  import: (form: FormData) => requestForm(PHONE_NUMBERS.import, form, { fallback: 'Error importing CSV' }),
  /** the full skipped list of an import (CSV, kept an hour) */
  skippedUrl: (id: string) => `/api${urlOf(PHONE_NUMBERS.skipped, { params: { id } })}`,
};
