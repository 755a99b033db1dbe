import { generatorBody, normalizeRole, TOOL_DEFAULT_INTERVAL, type ToolAccountRef } from '@wa/shared';
import { type FormEvent, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiCallError } from '../../api/client';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { FormField } from '../../components/form-field';
import { Card, PageBreadcrumb } from '../../components/page-breadcrumb';
import { useAuth } from '../auth/auth-context';
import { AccountSelect, InsertToggle, IntervalFields, NEW_ACCOUNT, useAccountChoices } from '../tools/tool-form';
import { toolFormErrors } from '../tools/tool-rows';
import { generatorApi } from './api';

const EMPTY = {
  start_number: '',
  end_number: '',
  whatsapp_id: '',
  b_insert: false,
  interval_min: String(TOOL_DEFAULT_INTERVAL.min),
  interval_max: String(TOOL_DEFAULT_INTERVAL.max),
};

/**
 * /generator/create 'Tambah Akun Generator', and ?id= to edit (§2, §5): a number range checked
 * one by one on a WhatsApp account, with the pause between checks.
 */
export function GeneratorFormPage() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || null;
  const navigate = useNavigate();
  const { user } = useAuth();
  const [form, setForm] = useState(EMPTY);
  // undefined until an edited generator has loaded; null when it has no owner
  const [owner, setOwner] = useState<number | null | undefined>(undefined);
  const [current, setCurrent] = useState<ToolAccountRef | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!id) return;
    generatorApi
      .get(id)
      .then((g) => {
        setForm({
          start_number: g.start_number,
          end_number: g.end_number,
          whatsapp_id: g.whatsapp_id ? String(g.whatsapp_id) : '',
          b_insert: g.b_insert === 1,
          interval_min: String(g.interval_min),
          interval_max: String(g.interval_max),
        });
        setOwner(g.user_id);
        setCurrent(g.Whatsapp);
      })
      .catch((err) => setError(`Error: ${err instanceof ApiCallError ? err.message : 'Error fetching Generator'}`));
  }, [id]);

  // the account choices are the owner's: a dev editing another user's generator sees that user's accounts
  const accounts = useAccountChoices(
    id && owner === undefined ? undefined : (owner ?? user?.id),
    current,
    normalizeRole(user?.role) === 'dev',
  );
  const errors = { ...toolFormErrors(generatorBody, form, submitted), ...serverErrors };

  const edit = <K extends keyof typeof EMPTY>(k: K, v: (typeof EMPTY)[K]) => {
    setForm((f) => ({ ...f, [k]: v }));
    setServerErrors(({ [k]: _, ...rest }) => rest);
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setSubmitted(true);
    const parsed = generatorBody.safeParse(form);
    if (!parsed.success) return;
    setSaving(true);
    try {
      if (id) await generatorApi.update(id, parsed.data);
      else await generatorApi.create(parsed.data);
      navigate('/generator/list');
    } catch (err) {
      const apiErr = err instanceof ApiCallError ? err : null;
      setServerErrors(apiErr?.errors ?? {});
      setError(`Error: ${apiErr?.message ?? 'Network error. Please try again.'}`);
    } finally {
      setSaving(false);
    }
  };

  const blocked = saving || form.whatsapp_id === NEW_ACCOUNT || !form.start_number.trim() || !form.end_number.trim();

  return (
    <>
      <PageBreadcrumb title="Tambah Akun Generator" />
      <Card className="max-w-2xl">
        <form onSubmit={save} noValidate className="space-y-4">
          {error && <Alert tone="error">{error}</Alert>}
          {accounts.error && <Alert tone="error">{accounts.error}</Alert>}
          <AccountSelect
            kind="generator"
            choices={accounts.choices}
            loading={accounts.loading}
            value={form.whatsapp_id}
            onChange={(v) => edit('whatsapp_id', v)}
            error={errors.whatsapp_id}
          />
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
