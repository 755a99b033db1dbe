import type { Paged, TemplateDto } from '@wa/shared';
import { call, sendForm } from '../../api/client';

type Saved = { message: TemplateDto; msg: string };

export const templatesApi = {
  page: (page: number) =>
    call<Paged<TemplateDto>>(`/admin/message/list-per-page?page=${page}`, {
      fallback: 'Error fetching Template list',
    }),
  get: (id: number) => call<{ message: TemplateDto }>(`/admin/message/${id}`, { fallback: 'Error fetching Template' }),
  create: (form: FormData) => sendForm<Saved>('/admin/message/create', 'POST', form, 'Error saving template message'),
  update: (id: number, form: FormData) =>
    sendForm<Saved>(`/admin/message/${id}`, 'PUT', form, 'Error updating template message'),
  remove: (id: number) =>
    call<{ id: number }>(`/admin/message/${id}`, { method: 'DELETE', fallback: 'Error deleting Template' }),
};
