import type { PhoneNumberDto } from '@wa/shared';
import { type FormEvent, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiCallError } from '../../api/client';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { FormField } from '../../components/form-field';
import { Card, PageBreadcrumb } from '../../components/page-breadcrumb';
import { phoneNumbersApi } from './api';

/** /phonenumber/edit?id= (§2): number, name and the status checkbox; back on save. */
export function PhoneNumberEditPage() {
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const navigate = useNavigate();
  const [row, setRow] = useState<PhoneNumberDto | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!id) {
      setError('Error: Phone number not found');
      return;
    }
    phoneNumbersApi
      .get(id)
      .then((r) => setRow(r.phoneNumber))
      .catch((err) => setError(`Error: ${err instanceof ApiCallError ? err.message : 'Error fetching Phone Number'}`));
  }, [id]);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!row) return;
    setSaving(true);
    setError(null);
    try {
      await phoneNumbersApi.update(row.id, { number: row.number, name: row.name, status: row.status });
      navigate(-1);
    } catch (err) {
      setError(`Error: ${err instanceof ApiCallError ? err.message : 'Network error. Please try again.'}`);
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <PageBreadcrumb title="Edit Phone Number" />
      <Card className="max-w-xl">
        {error && (
          <div className="mb-4">
            <Alert tone="error">{error}</Alert>
          </div>
        )}
        {row && (
          <form onSubmit={save} className="space-y-4">
            <FormField
              label="Nomor Telepon"
              name="number"
              value={row.number}
              onChange={(e) => setRow({ ...row, number: e.target.value })}
            />
            <FormField
              label="Nama"
              name="name"
              value={row.name}
              onChange={(e) => setRow({ ...row, name: e.target.value })}
            />
            <label className="flex items-center gap-3 text-sm text-gray-700 dark:text-gray-400">
              <input
                type="checkbox"
                name="status"
                checked={row.status === 'active'}
                onChange={(e) => setRow({ ...row, status: e.target.checked ? 'active' : 'nonactive' })}
                className="h-4 w-4 accent-brand-500"
              />
              Status aktif
            </label>
            <Button type="submit" disabled={saving}>
              {saving ? 'Menyimpan...' : 'Simpan'}
            </Button>
          </form>
        )}
      </Card>
    </>
  );
}
