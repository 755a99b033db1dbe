import type { TemplateDto } from '@wa/shared';
import { ApiCallError, call } from '../../api/client';
import { getToken } from '../../lib/cookies';
import type { PagedResult } from '../../lib/use-list-page';

/** Sends the template form as multipart (§7): file, text, text_wa, button (JSON string), status. */
async function sendForm(path: string, method: 'POST' | 'PUT', form: FormData, fallback: string) {
  const token = getToken();
  if (!token) throw new ApiCallError('Authorization token is missing', 0);
  let res: Response;
  try {
    res = await fetch(`/api${path}`, { method, headers: { Authorization: `Bearer ${token}` }, body: form });
  } catch {
    throw new ApiCallError('Network error. Please try again.', 0);
  }
  const data = (await res.json().catch(() => null)) as { msg?: string; errors?: Record<string, string> } | null;
  if (!res.ok) throw new ApiCallError(data?.msg ?? fallback, res.status, data?.errors ?? {});
  return data as { message: TemplateDto; msg: string };
}

export const templatesApi = {
  page: (page: number) =>
    call<PagedResult<TemplateDto>>(`/admin/message/list-per-page?page=${page}`, {
      fallback: 'Error fetching Template list',
    }),
  get: (id: number) => call<{ message: TemplateDto }>(`/admin/message/${id}`, { fallback: 'Error fetching Template' }),
  create: (form: FormData) => sendForm('/admin/message/create', 'POST', form, 'Error saving template message'),
  update: (id: number, form: FormData) =>
    sendForm(`/admin/message/${id}`, 'PUT', form, 'Error updating template message'),
  remove: (id: number) =>
    call<{ id: number }>(`/admin/message/${id}`, { method: 'DELETE', fallback: 'Error deleting Template' }),
};
