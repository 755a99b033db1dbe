import { GENERATOR, type GeneratorDto, type GeneratorInput } from '@wa/shared';
import { request } from '../../api/client';
import { listQuery, type ToolApi, toolFallbacks } from '../tools/api';

const fallback = toolFallbacks('Generator');

/** §7 Generator: /api/admin/generator/… (create and update send JSON). */
export const generatorApi = {
  page: (q) => request(GENERATOR.list, { query: listQuery(q), fallback: fallback.page }),
  get: async (id) => (await request(GENERATOR.get, { params: { id }, fallback: fallback.get })).generator,
  remove: (id) => request(GENERATOR.remove, { params: { id }, fallback: fallback.remove }),
  run: (action, id) =>
    request(action === 'start' ? GENERATOR.start : GENERATOR.stop, { body: { id }, fallback: fallback.run(action) }),
  results: async (id) => (await request(GENERATOR.downloadResult, { params: { id }, fallback: fallback.results })).list,
  create: (body: GeneratorInput) => request(GENERATOR.create, { body, fallback: 'Error create generator' }),
  update: (id: number, body: GeneratorInput) =>
    request(GENERATOR.update, { params: { id }, body, fallback: 'Error update generator' }),
} satisfies ToolApi<GeneratorDto> & Record<'create' | 'update', unknown>;
