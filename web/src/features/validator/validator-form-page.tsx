import { normalizeRole, TOOL_DEFAULT_INTERVAL, type ToolAccountRef, validatorFields } from '@wa/shared';
import { FileText } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiCallError } from '../../api/client';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Card, PageBreadcrumb } from '../../components/page-breadcrumb';
import { useAuth } from '../auth/auth-context';
import { AccountSelect, InsertToggle, IntervalFields, NEW_ACCOUNT, useAccountChoices } from '../tools/tool-form';
import { shortFileName, toolFormErrors } from '../tools/tool-rows';
import { validatorApi } from './api';

const EMPTY = {
  whatsapp_id: '',
  b_insert: false,
  interval_min: String(TOOL_DEFAULT_INTERVAL.min),
  interval_max: String(TOOL_DEFAULT_INTERVAL.max),
};

/** §5/§9: the target file is a .csv or .json */
const ACCEPTED = /\.(csv|json)$/i;

/**
 * /validator/create 'Tambah Akun Validator', and ?id= to edit (§2, §5): the numbers of an uploaded
 * .csv or .json file checked on a WhatsApp account. The file is set on create and cannot change.
 */
export function ValidatorFormPage() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || null;
  const navigate = useNavigate();
  const { user } = useAuth();
  const fileId = useId();
  const [form, setForm] = useState(EMPTY);
  const [file, setFile] = useState<File | null>(null);
  const [existing, setExisting] = useState<{ fileName: string; fileUrl: string } | null>(null);
  // undefined until an edited validator has loaded; null when it has no owner
  const [owner, setOwner] = useState<number | null | undefined>(undefined);
  const [current, setCurrent] = useState<ToolAccountRef | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!id) return;
    validatorApi
      .get(id)
      .then((v) => {
        setForm({
          whatsapp_id: v.whatsapp_id ? String(v.whatsapp_id) : '',
          b_insert: v.b_insert === 1,
          interval_min: String(v.interval_min),
          interval_max: String(v.interval_max),
        });
        setExisting({ fileName: v.fileName, fileUrl: v.fileUrl });
        setOwner(v.user_id);
        setCurrent(v.Whatsapp);
      })
      .catch((err) => setError(`Error: ${err instanceof ApiCallError ? err.message : 'Error fetching Validator'}`));
  }, [id]);

  const accounts = useAccountChoices(
    id && owner === undefined ? undefined : (owner ?? user?.id),
    current,
    normalizeRole(user?.role) === 'dev',
  );
  const fileError = !id && file && !ACCEPTED.test(file.name) ? 'Only .csv and .json files are accepted.' : undefined;
  const errors: Record<string, string> = {
    ...toolFormErrors(validatorFields, form, submitted),
    ...serverErrors,
    ...(fileError ? { file: fileError } : {}),
  };

  const edit = <K extends keyof typeof EMPTY>(k: K, v: (typeof EMPTY)[K]) => {
    setForm((f) => ({ ...f, [k]: v }));
    setServerErrors(({ [k]: _, ...rest }) => rest);
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setSubmitted(true);
    const parsed = validatorFields.safeParse(form);
    if (!parsed.success || fileError || (!id && !file)) return;
    setSaving(true);
    try {
      if (id) await validatorApi.update(id, parsed.data);
      else if (file) await validatorApi.create(parsed.data, file);
      navigate('/validator/list');
    } catch (err) {
      const apiErr = err instanceof ApiCallError ? err : null;
      setServerErrors(apiErr?.errors ?? {});
      setError(`Error: ${apiErr?.message ?? 'Network error. Please try again.'}`);
    } finally {
      setSaving(false);
    }
  };

  const blocked = saving || !form.whatsapp_id || form.whatsapp_id === NEW_ACCOUNT || (!id && !file);

  return (
    <>
      <PageBreadcrumb title="Tambah Akun Validator" />
      <Card className="max-w-2xl">
        <form onSubmit={save} noValidate className="space-y-4">
          {error && <Alert tone="error">{error}</Alert>}
          {accounts.error && <Alert tone="error">{accounts.error}</Alert>}
          <AccountSelect
            kind="validator"
            choices={accounts.choices}
            loading={accounts.loading}
            value={form.whatsapp_id}
            onChange={(v) => edit('whatsapp_id', v)}
            error={errors.whatsapp_id}
          />
          <div>
            {id ? (
              <p className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-400">Target File</p>
            ) : (
              <label htmlFor={fileId} className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-400">
                Target File (.csv / .json)
              </label>
            )}
            {id ? (
              existing && (
                <a
                  href={existing.fileUrl}
                  download={existing.fileName}
                  title={existing.fileName}
                  className="inline-flex max-w-full items-center gap-1.5 text-sm break-all text-brand-500 hover:underline"
                >
                  <FileText size={16} className="shrink-0" />
                  {shortFileName(existing.fileName, 40)}
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
                  setServerErrors(({ file: _, ...rest }) => rest);
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
          <IntervalFields
            min={form.interval_min}
            max={form.interval_max}
            onChange={(k, v) => edit(k, v)}
            errors={errors}
          />
          <InsertToggle checked={form.b_insert} onChange={(v) => edit('b_insert', v)} />
          <Button type="submit" disabled={blocked} className="w-full sm:w-auto">
            {saving ? 'Menyimpan...' : 'Simpan'}
          </Button>
        </form>
      </Card>
    </>
  );
}
