import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert } from '../../components/alert';
import { FormField } from '../../components/form-field';
import { ManualEntry } from '../../components/manual-entry';
import { SaveButton } from '../../components/save-button';
import { useSubmit } from '../../lib/use-submit';
import { ImportCard } from '../imports/import-card';
import { proxiesApi } from './api';

/** /proxy/create (§2): one field by hand, or a .csv/.json upload. */
export function ProxyCreatePage() {
  const navigate = useNavigate();
  const [value, setValue] = useState('');
  const submit = useSubmit();

  const save = (e: FormEvent) => {
    e.preventDefault();
    if (!value.trim()) {
      submit.setError('Error: Proxy is required.');
      return;
    }
    void submit.run(async () => {
      await proxiesApi.save(value);
      navigate(-1);
    });
  };

  return (
    <ManualEntry
      title="Tambah Proxy"
      upload={
        <ImportCard
          upload={proxiesApi.import}
          skippedUrl={proxiesApi.skippedUrl}
          noun="proxy"
          keyColumn="value"
          csvColumns={['value', 'status']}
          skippedFiles={{ csv: 'proxies_skipped.csv', json: 'proxies_skipped.json' }}
          fallback="Error importing File"
        />
      }
    >
      <form onSubmit={save} noValidate className="space-y-4">
        {submit.error && <Alert tone="error">{submit.error}</Alert>}
        <FormField
          label="Proxy"
          name="value"
          placeholder="user:pass@host:port"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          required
        />
        <SaveButton saving={submit.saving} />
      </form>
    </ManualEntry>
  );
}
