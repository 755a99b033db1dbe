import { DEFAULT_SETTINGS, PROFILE_FIELDS } from '@wa/shared';
import { type FormEvent, useEffect, useState } from 'react';
import { ApiCallError, settingsApi, usersApi } from '../../api/client';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { FormField, inputClass } from '../../components/form-field';
import { Modal } from '../../components/modal';
import { useAuth } from '../auth/auth-context';
import { API_KEY_UI } from './api-keys';

// the own-profile fields, and the current password a password or e-mail change asks for
const FIELDS = [...PROFILE_FIELDS, 'current_password'] as const;
type Field = (typeof FIELDS)[number];

/** The profile edit modal (§2: fixed height 450 px): profile fields and bank details. */
export function ProfileEditModal({ open, onClose }: { open: boolean; onClose(): void }) {
  const { user, setUser } = useAuth();
  const [form, setForm] = useState<Record<Field, string>>({
    firstname: '',
    lastname: '',
    email: '',
    password: '',
    account_name: '',
    account_bank: '',
    account_number: '',
    current_password: '',
  });
  const [banks, setBanks] = useState<string[]>(DEFAULT_SETTINGS.bank_names.split(', '));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [saving, setSaving] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: refill when the modal opens, not after our own save
  useEffect(() => {
    if (!open || !user) return;
    setForm({
      firstname: user.firstname,
      lastname: user.lastname,
      email: user.email,
      password: '',
      account_name: user.account_name ?? '',
      account_bank: user.account_bank ?? '',
      account_number: user.account_number ?? '',
      current_password: '',
    });
    setErrors({});
    setMessage(null);
    settingsApi
      .get()
      .then(({ setting }) => {
        const list = setting.bank_names
          .split(',')
          .map((b) => b.trim())
          .filter(Boolean);
        if (list.length) setBanks(list);
      })
      .catch(() => {});
  }, [open, user?.id]);

  if (!user) return null;
  const edit = (f: Field, v: string) => {
    setForm((s) => ({ ...s, [f]: v }));
    setErrors((e) => {
      const next = { ...e };
      delete next[f];
      return next;
    });
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaving(true);
    setMessage(null);
    try {
      const body: Record<string, string> = { ...form };
      if (!body.password) delete body.password;
      if (!body.current_password) delete body.current_password;
      const res = await usersApi.update(user.id, body);
      setUser(res.user, res.token);
      setForm((s) => ({ ...s, password: '', current_password: '' }));
      const revoked = res.api_keys_revoked ? ` ${API_KEY_UI.revokedCount(res.api_keys_revoked)}` : '';
      setMessage({ ok: true, text: `Profil berhasil disimpan.${revoked}` });
    } catch (err) {
      const apiErr = err instanceof ApiCallError ? err : null;
      setErrors(apiErr?.errors ?? {});
      setMessage({ ok: false, text: `Error: ${apiErr?.message ?? 'Error updating user'}` });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal open={open} onClose={onClose} title="Edit Personal Information" className="m-4">
      <form onSubmit={submit} noValidate className="flex h-[450px] flex-col" data-testid="profile-edit-form">
        <div className="custom-scrollbar flex-1 space-y-5 overflow-y-auto px-1 pb-3">
          {message && <Alert tone={message.ok ? 'success' : 'error'}>{message.text}</Alert>}
          <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
            <FormField
              label="First Name"
              name="firstname"
              value={form.firstname}
              onChange={(e) => edit('firstname', e.target.value)}
              error={errors.firstname}
            />
            <FormField
              label="Last Name"
              name="lastname"
              value={form.lastname}
              onChange={(e) => edit('lastname', e.target.value)}
              error={errors.lastname}
            />
          </div>
          <FormField
            label="Email"
            name="email"
            type="email"
            value={form.email}
            onChange={(e) => edit('email', e.target.value)}
            error={errors.email}
          />
          <FormField
            label="Password"
            name="password"
            type="password"
            autoComplete="new-password"
            placeholder="Kosongkan jika tidak diubah"
            value={form.password}
            onChange={(e) => edit('password', e.target.value)}
            error={errors.password}
            hint={API_KEY_UI.passwordChangeRevokes}
          />
          <FormField
            label="Password Saat Ini"
            name="current_password"
            type="password"
            autoComplete="current-password"
            placeholder="Wajib jika mengubah email atau password"
            value={form.current_password}
            onChange={(e) => edit('current_password', e.target.value)}
            error={errors.current_password}
          />
          <div>
            <label htmlFor="account_bank" className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-400">
              Bank
            </label>
            <select
              id="account_bank"
              name="account_bank"
              className={inputClass}
              value={form.account_bank}
              onChange={(e) => edit('account_bank', e.target.value)}
            >
              <option value="">Pilih bank</option>
              {[...new Set([...banks, form.account_bank].filter(Boolean))].map((b) => (
                <option key={b} value={b}>
                  {b}
                </option>
              ))}
            </select>
          </div>
          <FormField
            label="Nomor Rekening"
            name="account_number"
            inputMode="numeric"
            value={form.account_number}
            onChange={(e) => edit('account_number', e.target.value)}
            error={errors.account_number}
          />
          <FormField
            label="Nama Rekening"
            name="account_name"
            value={form.account_name}
            onChange={(e) => edit('account_name', e.target.value)}
            error={errors.account_name}
          />
        </div>
        <div className="mt-4 flex items-center justify-end gap-3">
          <Button variant="outline" size="sm" onClick={onClose}>
            Close
          </Button>
          <Button type="submit" size="sm" disabled={saving}>
            {saving ? 'Menyimpan...' : 'Save Changes'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
