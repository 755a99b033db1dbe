import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiCallError } from '../../api/client';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { FormField } from '../../components/form-field';
import { Card, PageBreadcrumb } from '../../components/page-breadcrumb';
import { ImportCard } from '../imports/import-card';
import { phoneNumbersApi } from './api';

/** /phonenumber/create (§2): a manual card and an upload card. */
export function PhoneNumberCreatePage() {
  const navigate = useNavigate();
  const [number, setNumber] = useState('');
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const local: Record<string, string> = {};
    if (!number.trim()) local.number = 'Nomor Telepon is required.';
    if (!name.trim()) local.name = 'Nama is required.';
    setErrors(local);
    if (Object.keys(local).length) return;
    setSaving(true);
    try {
      await phoneNumbersApi.save({ number, name });
      navigate(-1);
    } catch (err) {
      const apiErr = err instanceof ApiCallError ? err : null;
      setErrors(apiErr?.errors ?? {});
      setError(`Error: ${apiErr?.message ?? 'Network error. Please try again.'}`);
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <PageBreadcrumb title="Tambah Phone Number" />
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
        <Card>
          <h3 className="mb-4 text-lg font-semibold text-gray-800 dark:text-white/90">Input Manual</h3>
          <form onSubmit={save} noValidate className="space-y-4">
            {error && <Alert tone="error">{error}</Alert>}
            <FormField
              label="Nomor Telepon"
              name="number"
              inputMode="tel"
              placeholder="6281xxxxxxx"
              value={number}
              onChange={(e) => setNumber(e.target.value)}
              error={errors.number}
              required
            />
            <FormField
              label="Nama"
              name="name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              error={errors.name}
              required
            />
            <Button type="submit" disabled={saving}>
              {saving ? 'Menyimpan...' : 'Simpan Nomor'}
            </Button>
          </form>
        </Card>
        <ImportCard
          endpoint="/admin/phonenumber/import"
          noun="nomor"
          keyColumn="number"
          csvColumns={['number', 'name', 'status']}
          skippedFiles={{ csv: 'phone_numbers_skipped.csv', json: 'phone_numbers_skipped.json' }}
          fallback="Error importing CSV"
        />
      </div>
    </>
  );
}
