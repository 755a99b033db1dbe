import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiCallError } from '../../api/client';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { FormField } from '../../components/form-field';
import { Card, PageBreadcrumb } from '../../components/page-breadcrumb';
import { ImportCard } from '../imports/import-card';
import { proxiesApi } from './api';

/** /proxy/create (§2): one field by hand, or a .csv/.json upload. */
export function ProxyCreatePage() {
  const navigate = useNavigate();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!value.trim()) {
      setError('Error: Proxy is required.');
      return;
    }
    setSaving(true);
    try {
      await proxiesApi.save(value);
      navigate(-1);
    } catch (err) {
      setError(`Error: ${err instanceof ApiCallError ? err.message : 'Network error. Please try again.'}`);
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <PageBreadcrumb title="Tambah Proxy" />
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
        <Card>
          <h3 className="mb-4 text-lg font-semibold text-gray-800 dark:text-white/90">Input Manual</h3>
          <form onSubmit={save} noValidate className="space-y-4">
            {error && <Alert tone="error">{error}</Alert>}
            <FormField
              label="Proxy"
              name="value"
              placeholder="user:pass@host:port"
              value={value}
              onChange={(e) => setValue(e.target.value)}
              required
            />
            <Button type="submit" disabled={saving}>
              {saving ? 'Menyimpan...' : 'Simpan'}
            </Button>
          </form>
        </Card>
        <ImportCard
          endpoint="/admin/proxy/import"
          noun="proxy"
          keyColumn="value"
          csvColumns={['value', 'status']}
          skippedFiles={{ csv: 'proxies_skipped.csv', json: 'proxies_skipped.json' }}
          fallback="Error importing File"
        />
      </div>
    </>
  );
}
