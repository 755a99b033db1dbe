import type { FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { CheckboxField } from '../../components/checkbox-field';
import { EditCard } from '../../components/edit-card';
import { FormField } from '../../components/form-field';
import { SaveButton } from '../../components/save-button';
import { useRecord } from '../../lib/use-record';
import { useSubmit } from '../../lib/use-submit';
import { proxiesApi } from './api';

const load = async (id: number) => (await proxiesApi.get(id)).proxy;
const TEXTS = { missing: 'Proxy not found', fallback: 'Error fetching Proxy' };

/** /proxy/edit?id= (§2 Proxy edit): value and the status toggle; back on save. */
export function ProxyEditPage() {
  const navigate = useNavigate();
  const { loaded, record: row, setRecord: setRow, error } = useRecord(load, TEXTS);
  // a proxy 'in use' stays in use when the box is left on (or turned off and on again)
  const loadedStatus = loaded?.status ?? 'active';
  const submit = useSubmit();

  const save = (e: FormEvent) => {
    e.preventDefault();
    if (!row) return;
    void submit.run(async () => {
      await proxiesApi.update(row.id, { value: row.value, status: row.status });
      navigate(-1);
    });
  };

  return (
    <EditCard title="Edit Proxy" error={error ?? submit.error}>
      {row && (
        <form onSubmit={save} className="space-y-4">
          <FormField
            label="Proxy"
            name="value"
            value={row.value}
            onChange={(e) => setRow({ ...row, value: e.target.value })}
          />
          <CheckboxField
            name="status"
            label="Status aktif"
            checked={row.status !== 'nonactive'}
            onChange={(on) =>
              setRow({
                ...row,
                status: on ? (loadedStatus === 'nonactive' ? 'active' : loadedStatus) : 'nonactive',
              })
            }
          />
          <SaveButton saving={submit.saving} />
        </form>
      )}
    </EditCard>
  );
}
