import { levelBody } from '@wa/shared';
import { type FormEvent, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { errorText } from '../../api/client';
import { Alert } from '../../components/alert';
import { FormField } from '../../components/form-field';
import { Card, PageBreadcrumb } from '../../components/page-breadcrumb';
import { SaveButton } from '../../components/save-button';
import { SuccessDialog } from '../../components/success-dialog';
import { useSubmit } from '../../lib/use-submit';
import { levelsApi } from './api';

/** /level/create and /level/edit?id= (one screen, §2): name, blast fee, minimum blasts. */
export function LevelFormPage() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || null;
  const navigate = useNavigate();
  const [form, setForm] = useState({ name: '', blast_fee: '', requirement_blast: '' });
  const submit = useSubmit();
  const { errors, setError } = submit;
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
      .catch((err) => setError(`Error: ${errorText(err, 'Error fetching Level')}`));
  }, [id, setError]);

  const save = (e: FormEvent) => {
    e.preventDefault();
    void submit.submit(levelBody, form, async (data) => {
      const res = id ? await levelsApi.update(id, data) : await levelsApi.create(data);
      setDone(res.msg);
    });
  };
  const edit = (k: keyof typeof form, v: string) => setForm((f) => ({ ...f, [k]: v }));

  return (
    <>
      <PageBreadcrumb title={id ? 'Edit Level' : 'Tambah Level'} />
      <Card className="max-w-xl">
        <form onSubmit={save} noValidate className="space-y-4">
          {submit.error && <Alert tone="error">{submit.error}</Alert>}
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
          <SaveButton saving={submit.saving} />
        </form>
      </Card>
      <SuccessDialog message={done} onOk={() => navigate('/level')} />
    </>
  );
}
