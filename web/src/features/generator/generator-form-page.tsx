import { type GeneratorDto, generatorBody } from '@wa/shared';
import { FormField } from '../../components/form-field';
import { ToolFormCard } from '../tools/tool-form';
import { TOOL_FIELDS, toolFields, useToolForm } from '../tools/use-tool-form';
import { generatorApi } from './api';

const EMPTY = { ...TOOL_FIELDS, start_number: '', end_number: '' };
const toForm = (g: GeneratorDto) => ({ ...toolFields(g), start_number: g.start_number, end_number: g.end_number });

/**
 * /generator/create 'Tambah Akun Generator', and ?id= to edit (§2, §5): a number range checked
 * one by one on a WhatsApp account, with the pause between checks.
 */
export function GeneratorFormPage() {
  const tool = useToolForm({
    kind: 'generator',
    name: 'Generator',
    empty: EMPTY,
    load: generatorApi.get,
    toForm,
    schema: generatorBody,
  });
  const { id, form, edit, errors } = tool;
  const save = tool.save((data) => (id ? generatorApi.update(id, data) : generatorApi.create(data)));

  return (
    <ToolFormCard
      kind="generator"
      title="Tambah Akun Generator"
      tool={tool}
      errors={errors}
      blocked={!form.start_number.trim() || !form.end_number.trim()}
      onSubmit={save}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          label="Nomor Awal"
          name="start_number"
          inputMode="numeric"
          autoComplete="off"
          placeholder="6281xxxxxxx"
          value={form.start_number}
          onChange={(e) => edit('start_number', e.target.value)}
          error={errors.start_number}
        />
        <FormField
          label="Nomor Akhir"
          name="end_number"
          inputMode="numeric"
          autoComplete="off"
          placeholder="6281xxxxxxx"
          value={form.end_number}
          onChange={(e) => edit('end_number', e.target.value)}
          error={errors.end_number}
        />
      </div>
    </ToolFormCard>
  );
}
