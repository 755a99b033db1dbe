import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert } from '../../components/alert';
import { FormField } from '../../components/form-field';
import { ManualEntry } from '../../components/manual-entry';
import { SaveButton } from '../../components/save-button';
import { useSubmit } from '../../lib/use-submit';
import { ImportCard } from '../imports/import-card';
import { phoneNumbersApi } from './api';

/** /phonenumber/create (§2): a manual card and an upload card. */
export function PhoneNumberCreatePage() {
  const navigate = useNavigate();
  const [number, setNumber] = useState('');
  const [name, setName] = useState('');
  const submit = useSubmit();

  const save = (e: FormEvent) => {
    e.preventDefault();
    submit.setError(null);
    const local: Record<string, string> = {};
    if (!number.trim()) local.number = 'Nomor Telepon is required.';
    if (!name.trim()) local.name = 'Nama is required.';
    submit.setErrors(local);
    if (Object.keys(local).length) return;
    void submit.run(async () => {
      await phoneNumbersApi.save({ number, name });
      navigate(-1);
    });
  };

  return (
    <ManualEntry
      title="Tambah Phone Number"
      upload={
        <ImportCard
          upload={phoneNumbersApi.import}
          skippedUrl={phoneNumbersApi.skippedUrl}
          noun="nomor"
          keyColumn="number"
          csvColumns={['number', 'name', 'status']}
          skippedFiles={{ csv: 'phone_numbers_skipped.csv', json: 'phone_numbers_skipped.json' }}
          fallback="Error importing CSV"
        />
      }
    >
      <form onSubmit={save} noValidate className="space-y-4">
        {submit.error && <Alert tone="error">{submit.error}</Alert>}
        <FormField
          label="Nomor Telepon"
          name="number"
          inputMode="tel"
          placeholder="6281xxxxxxx"
          value={number}
          onChange={(e) => setNumber(e.target.value)}
          error={submit.errors.number}
          required
        />
        <FormField
          label="Nama"
          name="name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={submit.errors.name}
          required
        />
        <SaveButton saving={submit.saving} label="Simpan Nomor" />
      </form>
    </ManualEntry>
  );
}
