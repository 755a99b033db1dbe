import { createCampaignBody } from '@wa/shared';
import { type FormEvent, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { FormField } from '../../components/form-field';
import { Card } from '../../components/page-breadcrumb';
import { SaveButton } from '../../components/save-button';
import { useSubmit } from '../../lib/use-submit';
import { campaignsApi } from './api';
import { EMPTY_TERMS, TermsFields, type TermsValues, termsInput } from './campaign-terms';

/** A client an admin or dev may make a campaign for: the ones seen on the list so far. */
export interface ClientOption {
  id: number;
  name: string;
}

/**
 * 'New campaign': a draft with its name and terms; an admin or dev names the client it is for (by
 * user id: the API lists no clients, so the list's clients are offered as suggestions). It opens
 * the new campaign's page, where targets and variants are added and it is submitted.
 */
export function NewCampaignCard({
  operator,
  clients,
  onClose,
}: {
  operator: boolean;
  clients: ClientOption[];
  onClose(): void;
}) {
  const navigate = useNavigate();
  const listId = useId();
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
          <>
            <FormField
              label="Client (user id)"
              name="client_id"
              inputMode="numeric"
              list={listId}
              value={clientId}
              onChange={(e) => {
                setClientId(e.target.value);
                submit.clearError('client_id');
              }}
              error={submit.errors.client_id}
              hint="The id of a user with the client role"
            />
            <datalist id={listId}>
              {clients.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </datalist>
          </>
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
