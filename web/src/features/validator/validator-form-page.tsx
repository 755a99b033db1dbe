import { type ValidatorDto, validatorFields } from '@wa/shared';
import { FileText } from 'lucide-react';
import { useId, useState } from 'react';
import { ToolFormCard } from '../tools/tool-form';
import { shortFileName } from '../tools/tool-rows';
import { TOOL_FIELDS, toolFields, useToolForm } from '../tools/use-tool-form';
import { validatorApi } from './api';

/** §5/§9: the target file is a .csv or .json */
const ACCEPTED = /\.(csv|json)$/i;
const toForm = (v: ValidatorDto) => toolFields(v);

/**
 * /validator/create 'Tambah Akun Validator', and ?id= to edit (§2, §5): the numbers of an uploaded
 * .csv or .json file checked on a WhatsApp account. The file is set on create and cannot change.
 */
export function ValidatorFormPage() {
  const fileId = useId();
  const tool = useToolForm({
    kind: 'validator',
    name: 'Validator',
    empty: TOOL_FIELDS,
    load: validatorApi.get,
    toForm,
    schema: validatorFields,
  });
  const { id, form, loaded, submit } = tool;
  const [file, setFile] = useState<File | null>(null);
  const fileError = !id && file && !ACCEPTED.test(file.name) ? 'Only .csv and .json files are accepted.' : undefined;
  const errors: Record<string, string> = { ...tool.errors, ...(fileError ? { file: fileError } : {}) };
  const save = tool.save(
    async (data) => {
      if (id) await validatorApi.update(id, data);
      else if (file) await validatorApi.create(data, file);
    },
    !fileError && Boolean(id || file),
  );

  return (
    <ToolFormCard
      kind="validator"
      title="Tambah Akun Validator"
      tool={tool}
      errors={errors}
      blocked={!form.whatsapp_id || (!id && !file)}
      onSubmit={save}
    >
      <div>
        {id ? (
          <p className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-400">Target File</p>
        ) : (
          <label htmlFor={fileId} className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-400">
            Target File (.csv / .json)
          </label>
        )}
        {id ? (
          loaded && (
            <a
              href={loaded.fileUrl}
              download={loaded.fileName}
              title={loaded.fileName}
              className="inline-flex max-w-full items-center gap-1.5 text-sm break-all text-brand-500 hover:underline"
            >
              <FileText size={16} className="shrink-0" />
              {shortFileName(loaded.fileName, 40)}
            </a>
          )
        ) : (
          <input
            id={fileId}
            type="file"
            name="file"
            accept=".csv,.json"
            aria-invalid={errors.file ? true : undefined}
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              submit.clearError('file');
            }}
            className="block w-full cursor-pointer rounded-lg border border-gray-300 text-sm text-gray-600 file:mr-4 file:cursor-pointer file:border-0 file:bg-gray-100 file:px-4 file:py-3 file:text-sm file:font-medium file:text-gray-700 dark:border-gray-700 dark:text-gray-400 dark:file:bg-white/5 dark:file:text-gray-300"
          />
        )}
        {errors.file ? (
          <p className="mt-1.5 text-xs text-red-500" data-field-error="file">
            {errors.file}
          </p>
        ) : (
          id && <p className="mt-1.5 text-xs text-gray-500 dark:text-gray-400">File tidak dapat diubah.</p>
        )}
      </div>
    </ToolFormCard>
  );
}
