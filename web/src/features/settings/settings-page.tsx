import { type SettingDto, settingsBody } from '@wa/shared';
import { type FormEvent, useEffect, useState } from 'react';
import { call, errorText, settingsApi } from '../../api/client';
import { Alert } from '../../components/alert';
import { FormField, inputClass } from '../../components/form-field';
import { Card, PageBreadcrumb } from '../../components/page-breadcrumb';
import { SaveButton } from '../../components/save-button';
import { SuccessDialog } from '../../components/success-dialog';
import { useSubmit } from '../../lib/use-submit';

type Form = Record<keyof SettingDto, string>;

/** /settings 'Form Pengaturan' (§2, §3 Setting, §5: every field required). */
export function SettingsPage() {
  const [form, setForm] = useState<Form | null>(null);
  const submit = useSubmit();
  const { errors, error, setError } = submit;
  const [done, setDone] = useState<string | null>(null);

  useEffect(() => {
    settingsApi
      .get()
      .then(({ setting }) =>
        setForm(Object.fromEntries(Object.entries(setting).map(([k, v]) => [k, String(v)])) as Form),
      )
      .catch((err) => setError(errorText(err, 'Internal server error')));
  }, [setError]);

  if (!form) {
    return (
      <>
        <PageBreadcrumb title="Form Pengaturan" />
        {error && <Alert tone="error">{error}</Alert>}
      </>
    );
  }
  const edit = (k: keyof SettingDto, v: string) => setForm({ ...form, [k]: v });
  const save = (e: FormEvent) => {
    e.preventDefault();
    void submit.submit(settingsBody, form, async (data) => {
      const res = await call<{ setting: SettingDto; msg: string }>('/admin/setting/update', {
        method: 'PUT',
        body: data,
        fallback: 'Error updating settings',
      });
      setForm(Object.fromEntries(Object.entries(res.setting).map(([k, v]) => [k, String(v)])) as Form);
      setDone(res.msg);
    });
  };
  const num = (k: keyof SettingDto, label: string, hint?: string) => (
    <FormField
      label={label}
      name={k}
      inputMode="numeric"
      value={form[k]}
      onChange={(e) => edit(k, e.target.value)}
      error={errors[k]}
      hint={hint}
    />
  );

  return (
    <>
      <PageBreadcrumb title="Form Pengaturan" />
      <Card className="max-w-3xl">
        <form onSubmit={save} noValidate className="space-y-4">
          {error && <Alert tone="error">{error}</Alert>}
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            {num('interval_min', 'Interval Min (s)', 'Bawaan untuk nomor yang baru didaftarkan')}
            {num('interval_max', 'Interval Max (s)')}
            {num('price', 'Harga per Blast (Rp.)')}
            {num(
              'referral_percent',
              'Referral (%)',
              '0 sampai 100; dikalikan dengan pendapatan afiliasi yang diberikan ke member',
            )}
          </div>
          <FormField
            label="Nama Bank"
            name="bank_names"
            value={form.bank_names}
            onChange={(e) => edit('bank_names', e.target.value)}
            error={errors.bank_names}
            hint="Pisahkan dengan koma, mis. BCA, MANDIRI, BRI"
          />
          <FormField
            label="Warna Level"
            name="colors"
            value={form.colors}
            onChange={(e) => edit('colors', e.target.value)}
            error={errors.colors}
            hint="Warna hex dipisah koma, mis. #3C50E0, #10B981"
          />
          <div>
            <label htmlFor="info" className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-400">
              Info (banner)
            </label>
            <textarea
              id="info"
              name="info"
              rows={3}
              className={`${inputClass} h-auto`}
              value={form.info}
              onChange={(e) => edit('info', e.target.value)}
            />
            {errors.info && <p className="mt-1.5 text-xs text-red-500">{errors.info}</p>}
          </div>
          <SaveButton saving={submit.saving} />
        </form>
      </Card>
      <SuccessDialog message={done} onOk={() => setDone(null)} />
    </>
  );
}
