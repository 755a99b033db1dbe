import { VALIDATOR, type ValidatorDto, type ValidatorInput } from '@wa/shared';
import { request, requestForm } from '../../api/client';
import { listQuery, type ToolApi, toolFallbacks } from '../tools/api';

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

const fallback = toolFallbacks('Validator');

/** §7 Validator: /api/admin/validator/… (create and update send multipart; the file only on create). */
export const validatorApi = {
  page: (q) => request(VALIDATOR.list, { query: listQuery(q), fallback: fallback.page }),
  get: async (id) => (await request(VALIDATOR.get, { params: { id }, fallback: fallback.get })).validator,
  remove: (id) => request(VALIDATOR.remove, { params: { id }, fallback: fallback.remove }),
  run: (action, id) =>
    request(action === 'start' ? VALIDATOR.start : VALIDATOR.stop, { body: { id }, fallback: fallback.run(action) }),
  results: async (id) => (await request(VALIDATOR.downloadResult, { params: { id }, fallback: fallback.results })).list,
  create: (input: ValidatorInput, file: File) =>
    requestForm(VALIDATOR.create, validatorForm(input, file), { fallback: 'Error create validator' }),
  update: (id: number, input: ValidatorInput) =>
    requestForm(VALIDATOR.update, validatorForm(input), { params: { id }, fallback: 'Error update validator' }),
} satisfies ToolApi<ValidatorDto> & Record<'create' | 'update', unknown>;
