import type { GeneratorDto, GeneratorInput } from '@wa/shared';
import { call } from '../../api/client';
import { toolApi } from '../tools/api';

/** §7 Generator: /api/admin/generator/… (create and update send JSON). */
export const generatorApi = {
  ...toolApi<GeneratorDto>('generator', 'Generator'),
  create: (body: GeneratorInput) =>
    call<{ generator: GeneratorDto; msg: string }>('/admin/generator/create', {
      method: 'POST',
      body,
      fallback: 'Error create generator',
    }),
  update: (id: number, body: GeneratorInput) =>
    call<{ generator: GeneratorDto; msg: string }>(`/admin/generator/${id}`, {
      method: 'PUT',
      body,
      fallback: 'Error update generator',
    }),
};
