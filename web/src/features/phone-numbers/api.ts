import type { Paged, PhoneNumberDto, PhoneStatus, savePhoneNumberBody, updatePhoneNumberBody } from '@wa/shared';
import type { z } from 'zod';
import { call } from '../../api/client';

export const phoneNumbersApi = {
  page: (page: number, search: string, status?: PhoneStatus) =>
    call<Paged<PhoneNumberDto>>(
      `/admin/phonenumber/list-per-page?page=${page}${search ? `&search=${encodeURIComponent(search)}` : ''}${
        status ? `&status=${status}` : ''
      }`,
      { fallback: 'Error fetching Phone Number list' },
    ),
  get: (id: number) =>
    call<{ phoneNumber: PhoneNumberDto }>(`/admin/phonenumber/${id}`, { fallback: 'Error fetching Phone Number' }),
  save: (body: z.output<typeof savePhoneNumberBody>) =>
    call<{ phoneNumber: PhoneNumberDto; msg: string }>('/admin/phonenumber/save', {
      method: 'POST',
      body,
      fallback: 'Error saving Phone Number',
    }),
  update: (id: number, body: z.output<typeof updatePhoneNumberBody>) =>
    call<{ phoneNumber: PhoneNumberDto }>(`/admin/phonenumber/${id}`, {
      method: 'PUT',
      body,
      fallback: 'Error updating Phone Number',
    }),
  remove: (id: number) =>
    call<{ id: number }>(`/admin/phonenumber/${id}`, { method: 'DELETE', fallback: 'Error deleting Phone Number' }),
};
