import { TEMPLATES } from '@wa/shared';
import { request, requestForm, urlOf } from '../../api/client';

export const templatesApi = {
  page: (page: number) => request(TEMPLATES.page, { query: { page }, fallback: 'Error fetching Template list' }),
  get: (id: number) => request(TEMPLATES.get, { params: { id }, fallback: 'Error fetching Template' }),
  create: (form: FormData) => requestForm(TEMPLATES.create, form, { fallback: 'Error saving template message' }),
  update: (id: number, form: FormData) =>
    requestForm(TEMPLATES.update, form, { params: { id }, fallback: 'Error updating template message' }),
  /** a messages.json export, as multipart field `file` */
  import: (file: File) => {
    const form = new FormData();
    form.append('file', file);
    return requestForm(TEMPLATES.import, form, { fallback: 'Error importing File' });
  },
  remove: (id: number) => request(TEMPLATES.remove, { params: { id }, fallback: 'Error deleting Template' }),
  /** the export's download address: messages.json */
  exportUrl: () => `/api${urlOf(TEMPLATES.export)}`,
};
