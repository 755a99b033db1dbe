import type { ValidatorDto, ValidatorInput } from '@wa/shared';
import { sendForm } from '../../api/client';
import { toolApi } from '../tools/api';

/** The multipart body of §7: the file (create only) and the fields as text. */
function validatorForm(input: ValidatorInput, file?: File): FormData {
  const form = new FormData();
  if (file) form.append('file', file);
  form.append('whatsapp_id', String(input.whatsapp_id));
  form.append('b_insert', String(input.b_insert));
  form.append('interval_min', String(input.interval_min));
  form.append('interval_max', String(input.interval_max));
  return form;
}

/** §7 Validator: /api/admin/validator/… (create and update send multipart; the file only on create). */
export const validatorApi = {
  ...toolApi<ValidatorDto>('validator', 'Validator'),
  create: (input: ValidatorInput, file: File) =>
    sendForm<{ validator: ValidatorDto; msg: string }>(
      '/admin/validator/create',
      'POST',
      validatorForm(input, file),
      'Error create validator',
    ),
  update: (id: number, input: ValidatorInput) =>
    sendForm<{ validator: ValidatorDto; msg: string }>(
      `/admin/validator/${id}`,
      'PUT',
      validatorForm(input),
      'Error update validator',
    ),
};
