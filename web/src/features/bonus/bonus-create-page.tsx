import { createBonusBody, fieldErrors } from '@wa/shared';
import { type FormEvent, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiCallError } from '../../api/client';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { FormField, inputClass } from '../../components/form-field';
import { Card, PageBreadcrumb } from '../../components/page-breadcrumb';
import { SuccessDialog } from '../../components/success-dialog';
import { useAuth } from '../auth/auth-context';
import { bonusApi, type MemberOption } from './api';

const labelClass = 'mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-400';
const fieldError = (text?: string) => (text ? <p className="mt-1.5 text-xs text-red-500">{text}</p> : null);

/** /bonus/create (§2 Bonus, §5 Bonus): member, nominal and Keterangan; ?id= preselects the member. */
export function BonusCreatePage() {
  const { user } = useAuth();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const preselect = params.get('id') ?? '';
  const [members, setMembers] = useState<MemberOption[] | null>(null);
  const [form, setForm] = useState({ userId: preselect, nominal: '', reason: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  useEffect(() => {
    bonusApi
      .members()
      .then(setMembers)
      .catch((err) => {
        setMembers([]);
        setError(`Error: ${err instanceof ApiCallError ? err.message : 'Error fetching user'}`);
      });
  }, []);

  const edit = (k: keyof typeof form, v: string) => {
    setForm((f) => ({ ...f, [k]: v }));
    setErrors((e) => {
      const next = { ...e };
      delete next[k];
      return next;
    });
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const parsed = createBonusBody.safeParse({ ...form, adminId: user?.id });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      const res = await bonusApi.create({ ...parsed.data, adminId: user?.id });
      setDone(res.msg);
    } catch (err) {
      const apiErr = err instanceof ApiCallError ? err : null;
      setErrors(apiErr?.errors ?? {});
      setError(`Error: ${apiErr?.message ?? 'Network error. Please try again.'}`);
    } finally {
      setSaving(false);
    }
  };

  // a preselected id that is not a member stays visible as a choice, so the refusal is explained
  const known = members?.some((m) => String(m.id) === form.userId) ?? true;
  return (
    <>
      <PageBreadcrumb title="Kirim Bonus" />
      <Card className="max-w-xl">
        <form onSubmit={save} noValidate className="space-y-4">
          {error && <Alert tone="error">{error}</Alert>}
          <div>
            <label htmlFor="bonus-member" className={labelClass}>
              Member
            </label>
            <select
              id="bonus-member"
              name="userId"
              className={`${inputClass} ${errors.userId ? 'border-red-500' : ''}`}
              value={form.userId}
              disabled={members === null}
              onChange={(e) => edit('userId', e.target.value)}
            >
              <option value="">{members === null ? 'Memuat member...' : 'Pilih member'}</option>
              {!known && form.userId && <option value={form.userId}>Member #{form.userId}</option>}
              {members?.map((m) => (
                <option key={m.id} value={m.id}>
                  {`${m.firstname} ${m.lastname} (${m.email})`}
                </option>
              ))}
            </select>
            {fieldError(errors.userId)}
          </div>
          <FormField
            label="Nominal (Rp.)"
            name="nominal"
            inputMode="numeric"
            value={form.nominal}
            onChange={(e) => edit('nominal', e.target.value)}
            error={errors.nominal}
          />
          <div>
            <label htmlFor="bonus-reason" className={labelClass}>
              Keterangan
            </label>
            <textarea
              id="bonus-reason"
              name="reason"
              rows={3}
              className={`${inputClass} h-auto ${errors.reason ? 'border-red-500' : ''}`}
              value={form.reason}
              onChange={(e) => edit('reason', e.target.value)}
            />
            {fieldError(errors.reason)}
          </div>
          <Button type="submit" disabled={saving}>
            {saving ? 'Mengirim...' : 'Kirim Bonus'}
          </Button>
        </form>
      </Card>
      <SuccessDialog message={done} onOk={() => navigate('/bonus')} />
    </>
  );
}
