import { OPTOUT_LOCKED } from '@wa/shared';
import type { FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { CheckboxField } from '../../components/checkbox-field';
import { EditCard } from '../../components/edit-card';
import { FormField } from '../../components/form-field';
import { SaveButton } from '../../components/save-button';
import { useRecord } from '../../lib/use-record';
import { useSubmit } from '../../lib/use-submit';
import { phoneNumbersApi } from './api';

const load = async (id: number) => (await phoneNumbersApi.get(id)).phoneNumber;
const TEXTS = { missing: 'Phone number not found', fallback: 'Error fetching Phone Number' };

/** /phonenumber/edit?id= (§2): number, name and the status checkbox; back on save. */
export function PhoneNumberEditPage() {
  const navigate = useNavigate();
  const { record: row, setRecord: setRow, error } = useRecord(load, TEXTS);
  const submit = useSubmit();

  const save = (e: FormEvent) => {
    e.preventDefault();
    if (!row) return;
    void submit.run(async () => {
      // an opted-out number keeps its status (the server refuses to change it)
      const status = row.status === 'optout' ? undefined : row.status;
      await phoneNumbersApi.update(row.id, { number: row.number, name: row.name, status });
      navigate(-1);
    });
  };

  return (
    <EditCard title="Edit Phone Number" error={error ?? submit.error}>
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
          {row.status === 'optout' ? (
            <p className="text-sm text-red-600 dark:text-red-400">{OPTOUT_LOCKED}</p>
          ) : (
            <CheckboxField
              name="status"
              label="Status aktif"
              checked={row.status === 'active'}
              onChange={(on) => setRow({ ...row, status: on ? 'active' : 'nonactive' })}
            />
          )}
          <SaveButton saving={submit.saving} />
        </form>
      )}
    </EditCard>
  );
}
