import type { UserDto } from '@wa/shared';
import { type FormEvent, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { usersApi } from '../../api/client';
import { Alert } from '../../components/alert';
import { FormField } from '../../components/form-field';
import { Card, PageBreadcrumb } from '../../components/page-breadcrumb';
import { SaveButton } from '../../components/save-button';
import { useSubmit } from '../../lib/use-submit';

/** /member/edit?id= 'Edit Member' (§2): the member's blast intervals and fee. */
export function MemberEditPage() {
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const navigate = useNavigate();
  const [user, setUser] = useState<UserDto | null>(null);
  const [missing, setMissing] = useState(false);
  const [form, setForm] = useState({ blast_interval_min: '', blast_interval_max: '', blast_fee: '' });
  const submit = useSubmit();

  useEffect(() => {
    if (!id) {
      setMissing(true);
      return;
    }
    usersApi
      .get(id)
      .then(({ user: u }) => {
        setUser(u);
        setForm({
          blast_interval_min: String(u.blast_interval_min),
          blast_interval_max: String(u.blast_interval_max),
          blast_fee: String(u.blast_fee),
        });
      })
      .catch(() => setMissing(true));
  }, [id]);

  const save = (e: FormEvent) => {
    e.preventDefault();
    if (!user) return;
    const empty = Object.entries(form).find(([, v]) => v.trim() === '' || !/^\d+$/.test(v.trim()));
    if (empty) {
      submit.setError('Error: Interval Min, Interval Max dan Fee Whatsapp Blast wajib diisi dengan angka.');
      return;
    }
    void submit.run(async () => {
      await usersApi.update(user.id, {
        blast_interval_min: Number(form.blast_interval_min),
        blast_interval_max: Number(form.blast_interval_max),
        blast_fee: Number(form.blast_fee),
      });
      navigate(-1);
    }, 'Error updating user');
  };
  const edit = (k: keyof typeof form, v: string) => setForm((f) => ({ ...f, [k]: v }));

  return (
    <>
      <PageBreadcrumb title="Edit Member" />
      <Card className="max-w-xl">
        {missing ? (
          <p className="text-gray-600 dark:text-gray-400">No User Found</p>
        ) : (
          user && (
            <form onSubmit={save} noValidate className="space-y-4">
              <h3 className="text-lg font-semibold text-gray-800 dark:text-white/90">Interval Whatsapp Blast</h3>
              <p className="text-sm text-gray-500 dark:text-gray-400">
                {user.firstname} {user.lastname} · {user.email}
              </p>
              {submit.error && <Alert tone="error">{submit.error}</Alert>}
              <FormField
                label="Interval Min (s)"
                name="blast_interval_min"
                inputMode="numeric"
                required
                value={form.blast_interval_min}
                onChange={(e) => edit('blast_interval_min', e.target.value)}
              />
              <FormField
                label="Interval Max (s)"
                name="blast_interval_max"
                inputMode="numeric"
                required
                value={form.blast_interval_max}
                onChange={(e) => edit('blast_interval_max', e.target.value)}
              />
              <FormField
                label="Fee Whatsapp Blast (Rp.)"
                name="blast_fee"
                inputMode="numeric"
                required
                value={form.blast_fee}
                onChange={(e) => edit('blast_fee', e.target.value)}
              />
              <SaveButton saving={submit.saving} />
            </form>
          )
        )}
      </Card>
    </>
  );
}
