import { fieldErrors, levelBody } from '@wa/shared';
import { type FormEvent, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiCallError } from '../../api/client';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { FormField } from '../../components/form-field';
import { Card, PageBreadcrumb } from '../../components/page-breadcrumb';
import { SuccessDialog } from '../../components/success-dialog';
import { levelsApi } from './api';

/** /level/create and /level/edit?id= (one screen, §2): name, blast fee, minimum blasts. */
export function LevelFormPage() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || null;
  const navigate = useNavigate();
  const [form, setForm] = useState({ name: '', blast_fee: '', requirement_blast: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  useEffect(() => {
    if (!id) return;
    levelsApi
      .get(id)
      .then(({ level }) =>
        setForm({
          name: level.name,
          blast_fee: String(level.blast_fee),
          requirement_blast: String(level.requirement_blast),
        }),
      )
      .catch((err) => setError(`Error: ${err instanceof ApiCallError ? err.message : 'Error fetching Level'}`));
  }, [id]);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const parsed = levelBody.safeParse(form);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      const res = id ? await levelsApi.update(id, parsed.data) : await levelsApi.create(parsed.data);
      setDone(res.msg);
    } catch (err) {
      const apiErr = err instanceof ApiCallError ? err : null;
      setErrors(apiErr?.errors ?? {});
      setError(`Error: ${apiErr?.message ?? 'Network error. Please try again.'}`);
    } finally {
      setSaving(false);
    }
  };
  const edit = (k: keyof typeof form, v: string) => setForm((f) => ({ ...f, [k]: v }));

  return (
    <>
      <PageBreadcrumb title={id ? 'Edit Level' : 'Tambah Level'} />
      <Card className="max-w-xl">
        <form onSubmit={save} noValidate className="space-y-4">
          {error && <Alert tone="error">{error}</Alert>}
          <FormField
            label="Nama Level"
            name="name"
            value={form.name}
            onChange={(e) => edit('name', e.target.value)}
            error={errors.name}
          />
          <FormField
            label="Blast Fee (Rp.)"
            name="blast_fee"
            inputMode="numeric"
            value={form.blast_fee}
            onChange={(e) => edit('blast_fee', e.target.value)}
            error={errors.blast_fee}
          />
          <FormField
            label="Minimal Blast"
            name="requirement_blast"
            inputMode="numeric"
            value={form.requirement_blast}
            onChange={(e) => edit('requirement_blast', e.target.value)}
            error={errors.requirement_blast}
          />
          <Button type="submit" disabled={saving}>
            {saving ? 'Menyimpan...' : 'Simpan'}
          </Button>
        </form>
      </Card>
      <SuccessDialog message={done} onOk={() => navigate('/level')} />
    </>
  );
}
