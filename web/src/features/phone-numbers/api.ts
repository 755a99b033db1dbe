import type { PhoneNumberDto } from '@wa/shared';
import { call } from '../../api/client';
import type { PagedResult } from '../../lib/use-list-page';

export const phoneNumbersApi = {
  page: (page: number, search: string) =>
    call<PagedResult<PhoneNumberDto>>(
      `/admin/phonenumber/list-per-page?page=${page}${search ? `&search=${encodeURIComponent(search)}` : ''}`,
      { fallback: 'Error fetching Phone Number list' },
    ),
  get: (id: number) =>
    call<{ phoneNumber: PhoneNumberDto }>(`/admin/phonenumber/${id}`, { fallback: 'Error fetching Phone Number' }),
  save: (body: { number: string; name: string }) =>
    call<{ phoneNumber: PhoneNumberDto; msg: string }>('/admin/phonenumber/save', {
      method: 'POST',
      body,
      fallback: 'Error saving Phone Number',
    }),
  update: (id: number, body: Partial<Pick<PhoneNumberDto, 'number' | 'name' | 'status'>>) =>
    call<{ phoneNumber: PhoneNumberDto }>(`/admin/phonenumber/${id}`, {
      method: 'PUT',
      body,
      fallback: 'Error updating Phone Number',
    }),
  remove: (id: number) =>
    call<{ id: number }>(`/admin/phonenumber/${id}`, { method: 'DELETE', fallback: 'Error deleting Phone Number' }),
};
