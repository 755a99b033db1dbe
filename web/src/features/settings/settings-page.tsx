import { PAYOUT_ON, type PayoutOn, type SettingDto, settingsBody } from '@wa/shared';
import { type FormEvent, useEffect, useState } from 'react';
import { errorText, settingsApi } from '../../api/client';
import { Alert } from '../../components/alert';
import { FormField, inputClass } from '../../components/form-field';
import { Card, PageBreadcrumb } from '../../components/page-breadcrumb';
import { SaveButton } from '../../components/save-button';
import { SuccessDialog } from '../../components/success-dialog';
import { useSubmit } from '../../lib/use-submit';

type Form = Record<keyof SettingDto, string>;

/** When a member earns a message's fee, in the screen's words. */
const PAYOUT_LABELS: Record<PayoutOn, string> = {
  accepted: 'Saat diterima WhatsApp',
  delivered: 'Saat terkirim ke penerima',
};

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
  // builds on the latest form, not this render's: two edits in one frame both stay
  const edit = (k: keyof SettingDto, v: string) => setForm((f) => f && { ...f, [k]: v });
  const save = (e: FormEvent) => {
    e.preventDefault();
    void submit.submit(settingsBody, form, async (data) => {
      const res = await settingsApi.update(data);
      setForm(Object.fromEntries(Object.entries(res.setting).map(([k, v]) => [k, String(v)])) as Form);
      setDone(res.msg);
    });
  };
  const field = (k: keyof SettingDto, label: string, hint?: string, inputMode?: 'numeric') => (
    <FormField
      label={label}
      name={k}
      inputMode={inputMode}
      value={form[k]}
      onChange={(e) => edit(k, e.target.value)}
      error={errors[k]}
      hint={hint}
    />
  );
  const num = (k: keyof SettingDto, label: string, hint?: string) => field(k, label, hint, 'numeric');
  const area = (k: keyof SettingDto, label: string, hint: string, rows = 6) => (
    <div>
      <label htmlFor={k} className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-400">
        {label}
      </label>
      <textarea
        id={k}
        name={k}
        rows={rows}
        className={`${inputClass} h-auto`}
        value={form[k]}
        onChange={(e) => edit(k, e.target.value)}
        aria-invalid={errors[k] ? true : undefined}
      />
      {errors[k] ? (
        <p className="mt-1.5 text-xs text-red-500" data-field-error={k}>
          {errors[k]}
        </p>
      ) : (
        <p className="mt-1.5 text-xs text-gray-500 dark:text-gray-400">{hint}</p>
      )}
    </div>
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
          <fieldset className="space-y-4 border-t border-gray-200 pt-4 dark:border-gray-800">
            <legend className="pt-4 text-base font-semibold text-gray-800 dark:text-white/90">Keamanan Akun</legend>
            <p className="text-sm text-gray-500 dark:text-gray-400">
              Menjaga akun WhatsApp member dari blokir: jam kirim, batas harian, jeda setelah tanda blokir dan opt-out.
            </p>
            <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
              {field('send_window_start', 'Jam Kirim Mulai', 'HH:MM, zona waktu aplikasi')}
              {field('send_window_end', 'Jam Kirim Selesai', 'HH:MM; 24:00 = sampai tengah malam')}
              {num('daily_cap_start', 'Batas Harian Awal', 'Pesan per hari untuk akun baru')}
              {num('daily_cap_growth', 'Kenaikan per Hari', 'Tambahan batas tiap hari akun terhubung')}
              {num('daily_cap_max', 'Batas Harian Maksimal')}
              {num('fail_streak_pause', 'Gagal Berturut-turut', 'Sekian gagal kirim berturut-turut menjeda akun')}
              {num('pause_hours', 'Lama Jeda (jam)')}
              {num('check_budget_daily', 'Batas Cek Nomor Harian', 'Cek nomor generator/validator per akun per hari')}
              {num(
                'check_cache_days',
                'Simpan Hasil Cek (hari)',
                'Nomor yang sudah dicek tidak dicek ulang; 0 = selalu cek',
              )}
            </div>
            {field(
              'optout_keywords',
              'Kata Opt-out',
              'Balasan yang persis salah satu kata ini (pisahkan koma) tidak dikirimi lagi',
            )}
          </fieldset>
          <fieldset className="space-y-4 border-t border-gray-200 pt-4 dark:border-gray-800">
            <legend className="pt-4 text-base font-semibold text-gray-800 dark:text-white/90">Pembayaran</legend>
            <p className="text-sm text-gray-500 dark:text-gray-400">
              Kapan member mendapat fee sebuah pesan: begitu WhatsApp menerimanya, atau baru setelah pesan sampai ke
              penerima.
            </p>
            <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
              <div>
                <label
                  htmlFor="payout_on"
                  className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-400"
                >
                  Fee Dibayar
                </label>
                <select
                  id="payout_on"
                  name="payout_on"
                  className={inputClass}
                  value={form.payout_on}
                  onChange={(e) => edit('payout_on', e.target.value)}
                >
                  {PAYOUT_ON.map((p) => (
                    <option key={p} value={p}>
                      {PAYOUT_LABELS[p]}
                    </option>
                  ))}
                </select>
                {errors.payout_on && <p className="mt-1.5 text-xs text-red-500">{errors.payout_on}</p>}
              </div>
              {num(
                'undelivered_window_hours',
                'Batas Tunggu Terkirim (jam)',
                'Bila fee dibayar saat terkirim: pesan yang belum sampai setelah sekian jam tidak dibayar (1 sampai 720)',
              )}
            </div>
          </fieldset>
          <fieldset className="space-y-4 border-t border-gray-200 pt-4 dark:border-gray-800">
            <legend className="pt-4 text-base font-semibold text-gray-800 dark:text-white/90">Halaman Publik</legend>
            <p className="text-sm text-gray-500 dark:text-gray-400">
              Teks yang bisa dibaca tanpa login: syarat dan ketentuan, kebijakan privasi, kontak admin untuk lupa
              password, dan tautan Telegram di menu member.
            </p>
            {area('terms_text', 'Syarat dan Ketentuan', 'Tampil di /terms apa adanya (teks biasa, tanpa HTML)')}
            {area('privacy_text', 'Kebijakan Privasi', 'Tampil di /privacy-policy apa adanya (teks biasa, tanpa HTML)')}
            {area('support_contact', 'Kontak Admin', 'Tampil di /reset-password: cara menghubungi admin', 2)}
            {field('telegram_url', 'Tautan Telegram', 'Alamat https://; kosongkan untuk menyembunyikan menu Telegram')}
          </fieldset>
          <SaveButton saving={submit.saving} />
        </form>
      </Card>
      <SuccessDialog message={done} onOk={() => setDone(null)} />
    </>
  );
}
