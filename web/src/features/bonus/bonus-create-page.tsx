import { createBonusBody } from '@wa/shared';
import { type FormEvent, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { errorText } from '../../api/client';
import { Alert } from '../../components/alert';
import { FormField, inputClass } from '../../components/form-field';
import { Card, PageBreadcrumb } from '../../components/page-breadcrumb';
import { SaveButton } from '../../components/save-button';
import { SuccessDialog } from '../../components/success-dialog';
import { useSubmit } from '../../lib/use-submit';
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
  const submit = useSubmit();
  const { errors, setError } = submit;
  const [done, setDone] = useState<string | null>(null);

  useEffect(() => {
    bonusApi
      .members()
      .then(setMembers)
      .catch((err) => {
        setMembers([]);
        setError(`Error: ${errorText(err, 'Error fetching user')}`);
      });
  }, [setError]);

  const edit = (k: keyof typeof form, v: string) => {
    setForm((f) => ({ ...f, [k]: v }));
    submit.clearError(k);
  };

  const save = (e: FormEvent) => {
    e.preventDefault();
    void submit.submit(createBonusBody, { ...form, adminId: user?.id }, async (data) => {
      const res = await bonusApi.create({ ...data, adminId: user?.id });
      setDone(res.msg);
    });
  };

  // a preselected id that is not a member stays visible as a choice, so the refusal is explained
  const known = members?.some((m) => String(m.id) === form.userId) ?? true;
  return (
    <>
      <PageBreadcrumb title="Kirim Bonus" />
      <Card className="max-w-xl">
        <form onSubmit={save} noValidate className="space-y-4">
          {submit.error && <Alert tone="error">{submit.error}</Alert>}
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
          <SaveButton saving={submit.saving} label="Kirim Bonus" busyLabel="Mengirim..." />
        </form>
      </Card>
      <SuccessDialog message={done} onOk={() => navigate('/bonus')} />
    </>
  );
}
