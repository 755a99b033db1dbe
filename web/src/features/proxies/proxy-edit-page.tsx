import type { ProxyDto } from '@wa/shared';
import { type FormEvent, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiCallError } from '../../api/client';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { FormField } from '../../components/form-field';
import { Card, PageBreadcrumb } from '../../components/page-breadcrumb';
import { proxiesApi } from './api';

/** /proxy/edit?id= (§2 Proxy edit): value and the status toggle; back on save. */
export function ProxyEditPage() {
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const navigate = useNavigate();
  const [row, setRow] = useState<ProxyDto | null>(null);
  // a proxy 'in use' stays in use when the box is left on (or turned off and on again)
  const [loadedStatus, setLoadedStatus] = useState<ProxyDto['status']>('active');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!id) {
      setError('Error: Proxy not found');
      return;
    }
    proxiesApi
      .get(id)
      .then((r) => {
        setRow(r.proxy);
        setLoadedStatus(r.proxy.status);
      })
      .catch((err) => setError(`Error: ${err instanceof ApiCallError ? err.message : 'Error fetching Proxy'}`));
  }, [id]);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!row) return;
    setSaving(true);
    setError(null);
    try {
      await proxiesApi.update(row.id, { value: row.value, status: row.status });
      navigate(-1);
    } catch (err) {
      setError(`Error: ${err instanceof ApiCallError ? err.message : 'Network error. Please try again.'}`);
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <PageBreadcrumb title="Edit Proxy" />
      <Card className="max-w-xl">
        {error && (
          <div className="mb-4">
            <Alert tone="error">{error}</Alert>
          </div>
        )}
        {row && (
          <form onSubmit={save} className="space-y-4">
            <FormField
              label="Proxy"
              name="value"
              value={row.value}
              onChange={(e) => setRow({ ...row, value: e.target.value })}
            />
            <label className="flex items-center gap-3 text-sm text-gray-700 dark:text-gray-400">
              <input
                type="checkbox"
                name="status"
                checked={row.status !== 'nonactive'}
                onChange={(e) =>
                  setRow({
                    ...row,
                    status: e.target.checked ? (loadedStatus === 'nonactive' ? 'active' : loadedStatus) : 'nonactive',
                  })
                }
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
