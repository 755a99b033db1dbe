import { createCampaignBody } from '@wa/shared';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { inputClass } from '../../components/form-field';
import { Card } from '../../components/page-breadcrumb';
import { SaveButton } from '../../components/save-button';
import { useSubmit } from '../../lib/use-submit';
import { campaignsApi } from './api';
import { EMPTY_TERMS, TermsFields, type TermsValues, termsInput } from './campaign-terms';

/**
 * 'New campaign': a draft with its name and terms; an admin or dev picks the client it is for from
 * the client users. It opens the new campaign's page, where targets and variants are added and it
 * is submitted.
 */
export function NewCampaignCard({ operator, onClose }: { operator: boolean; onClose(): void }) {
  const navigate = useNavigate();
  const selectId = useId();
  const [clients, setClients] = useState<Array<{ id: number; name: string; email: string }> | null>(null);
  useEffect(() => {
    if (!operator) return;
    let live = true;
    campaignsApi
      .clients()
      .then((list) => live && setClients(list))
      .catch(() => live && setClients([]));
    return () => {
      live = false;
    };
  }, [operator]);
  const [values, setValues] = useState<TermsValues>(EMPTY_TERMS);
  const [clientId, setClientId] = useState('');
  const submit = useSubmit();

  const edit = (field: keyof TermsValues, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    submit.clearError(field);
  };
  const save = (e: FormEvent) => {
    e.preventDefault();
    const input = {
      ...termsInput(values, operator, undefined),
      client_id: operator ? clientId || undefined : undefined,
    };
    void submit.submit(createCampaignBody, input, async (body) => {
      const { data } = await campaignsApi.create(body);
      navigate(`/campaigns/${data.id}`);
    });
  };

  return (
    <Card className="mb-6">
      <h3 className="mb-4 text-lg font-semibold text-gray-800 dark:text-white/90">New campaign</h3>
      <form onSubmit={save} noValidate className="space-y-4" data-testid="new-campaign-form">
        {submit.error && <Alert tone="error">{submit.error}</Alert>}
        {operator && (
          <div>
            <label htmlFor={selectId} className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-400">
              Client
            </label>
            <select
              id={selectId}
              name="client_id"
              className={inputClass}
              value={clientId}
              aria-invalid={submit.errors.client_id ? true : undefined}
              onChange={(e) => {
                setClientId(e.target.value);
                submit.clearError('client_id');
              }}
            >
              <option value="">{clients === null ? 'Loading...' : 'Choose a client'}</option>
              {(clients ?? []).map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name} ({c.email})
                </option>
              ))}
            </select>
            {submit.errors.client_id ? (
              <p className="mt-1.5 text-xs text-red-500" data-field-error="client_id">
                {submit.errors.client_id}
              </p>
            ) : clients?.length === 0 ? (
              <p className="mt-1.5 text-xs text-gray-500 dark:text-gray-400">
                No user has the client role yet: give one that role on their member page first.
              </p>
            ) : null}
          </div>
        )}
        <TermsFields values={values} onChange={edit} errors={submit.errors} operator={operator} />
        <div className="flex flex-wrap gap-3">
          <SaveButton saving={submit.saving} label="Create draft" busyLabel="Creating..." />
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
        </div>
      </form>
    </Card>
  );
}
