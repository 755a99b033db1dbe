import type { ApiKeyDto, CreatedApiKey } from '@wa/shared';
import { Copy, KeyRound, X } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { errorText } from '../../api/client';
import { Alert } from '../../components/alert';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { CheckboxField } from '../../components/checkbox-field';
import { type Column, DataTable } from '../../components/data-table';
import { type Confirmation, ConfirmDialog } from '../../components/dialogs';
import { FormField } from '../../components/form-field';
import { Card } from '../../components/page-breadcrumb';
import { SaveButton } from '../../components/save-button';
import { useRowDelete } from '../../lib/use-row-delete';
import { useSubmit } from '../../lib/use-submit';
import { useAuth } from '../auth/auth-context';
import { apiKeysApi } from './api';
import { API_KEY_UI, type ApiKeyForm, type ApiKeyRow, apiKeyRow, createKeyBody, withCreated } from './api-keys';

const T = API_KEY_UI;
const EMPTY_FORM: ApiKeyForm = { name: '', readOnly: false, currentPassword: '' };

/** The key just made, shown this once until dismissed or replaced by the next one. */
function NewKeyBox({ created, onDismiss }: { created: CreatedApiKey; onDismiss(): void }) {
  const [copyMsg, setCopyMsg] = useState<{ ok: boolean; text: string } | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key);
      setCopyMsg({ ok: true, text: T.copied });
    } catch {
      setCopyMsg({ ok: false, text: T.copyFailed });
    }
  };
  return (
    <div
      className="space-y-3 rounded-xl border border-yellow-500 bg-yellow-50 p-4 dark:border-yellow-500/30 dark:bg-yellow-500/15"
      data-testid="new-api-key"
    >
      <div className="flex items-start justify-between gap-3">
        <div>
          <p className="text-sm font-semibold text-gray-800 dark:text-white/90">
            {T.newKey}: {created.name}
          </p>
          <p className="text-sm text-yellow-800 dark:text-yellow-400">{T.once}</p>
        </div>
        <Button variant="ghost" size="sm" onClick={onDismiss} aria-label={T.dismiss}>
          <X size={16} /> {T.dismiss}
        </Button>
      </div>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          readOnly
          value={created.key}
          aria-label={T.newKey}
          data-testid="new-api-key-value"
          onFocus={(e) => e.currentTarget.select()}
          className="h-11 w-full rounded-lg border border-gray-300 bg-white px-4 font-mono text-sm text-gray-800 dark:border-gray-700 dark:bg-gray-900 dark:text-white/90"
        />
        <Button variant="outline" onClick={copy}>
          <Copy size={16} /> {T.copy}
        </Button>
      </div>
      {copyMsg && <Alert tone={copyMsg.ok ? 'success' : 'error'}>{copyMsg.text}</Alert>}
    </div>
  );
}

/**
 * The profile's API Key section: make a key (with the password; shown once), list the live ones,
 * revoke one. The list is read again when this browser's token changes: a password change in the
 * edit modal has revoked every key.
 */
export function ApiKeysCard() {
  const { token } = useAuth();
  const [keys, setKeys] = useState<ApiKeyDto[]>([]);
  const [loading, setLoading] = useState(true);
  const [listError, setListError] = useState<string | null>(null);
  const [form, setForm] = useState<ApiKeyForm>(EMPTY_FORM);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const submit = useSubmit();
  const rowDelete = useRowDelete(apiKeysApi.revoke, (id) => {
    setKeys((list) => list.filter((k) => k.id !== id));
    setCreated((c) => (c?.id === id ? null : c));
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new token (a password change) means the keys were revoked
  useEffect(() => {
    let live = true;
    apiKeysApi
      .list()
      .then((list) => live && setKeys(list))
      .catch((err) => live && setListError(errorText(err, T.fetchFallback)))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [token]);

  const create = (e: FormEvent) => {
    e.preventDefault();
    const checked = createKeyBody(form);
    submit.setError(null);
    if (!checked.ok) {
      submit.setErrors(checked.errors);
      return;
    }
    submit.setErrors({});
    void submit.run(async () => {
      const made = await apiKeysApi.create(checked.body);
      setKeys((list) => withCreated(list, made));
      setCreated(made);
      setForm(EMPTY_FORM);
    });
  };

  const askRevoke = (r: ApiKeyRow) =>
    setConfirmation({
      title: T.confirmTitle,
      text: T.confirmText(r.name),
      confirm: T.confirm,
      cancel: T.cancel,
      danger: true,
      onConfirm: () => void rowDelete.remove(r.id),
    });

  const columns: Column<ApiKeyRow>[] = [
    {
      header: T.columns.name,
      cell: (r) => <span className="font-medium break-words text-gray-800 dark:text-white/90">{r.name}</span>,
    },
    { header: T.columns.prefix, cell: (r) => <code className="font-mono whitespace-nowrap">{r.prefix}</code> },
    {
      header: T.columns.access,
      cell: (r) => <Badge tone={r.access === T.readOnlyAccess ? 'neutral' : 'brand'}>{r.access}</Badge>,
    },
    { header: T.columns.lastUsed, cell: (r) => <span className="whitespace-nowrap">{r.lastUsed}</span> },
    { header: T.columns.created, cell: (r) => <span className="whitespace-nowrap">{r.created}</span> },
    {
      header: T.action,
      cell: (r) =>
        rowDelete.isDeleting(r.id) ? (
          <span className="text-gray-500">{T.revoking}</span>
        ) : (
          <button type="button" onClick={() => askRevoke(r)} className="text-red-500 hover:underline">
            {T.revoke}
          </button>
        ),
    },
  ];

  return (
    <Card>
      <div className="mb-2 flex flex-wrap items-center justify-between gap-3">
        <h4 className="flex items-center gap-2 text-lg font-semibold text-gray-800 dark:text-white/90">
          <KeyRound size={18} /> {T.title}
        </h4>
        {!loading && !listError && <Badge>{T.count(keys.length)}</Badge>}
      </div>
      <p className="mb-5 text-sm text-gray-500 dark:text-gray-400">
        {T.intro} {T.revokedWhen}
      </p>
      <div className="space-y-5">
        <form onSubmit={create} noValidate className="space-y-4" data-testid="api-key-form">
          {submit.error && <Alert tone="error">{submit.error}</Alert>}
          <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
            <FormField
              label={T.name}
              name="name"
              className="sm:flex-1"
              placeholder={T.namePlaceholder}
              maxLength={60}
              value={form.name}
              onChange={(e) => {
                setForm((f) => ({ ...f, name: e.target.value }));
                submit.clearError('name');
              }}
              error={submit.errors.name}
            />
            <FormField
              label={T.currentPassword}
              name="current_password"
              type="password"
              autoComplete="current-password"
              className="sm:flex-1"
              placeholder={T.currentPasswordPlaceholder}
              value={form.currentPassword}
              onChange={(e) => {
                setForm((f) => ({ ...f, currentPassword: e.target.value }));
                submit.clearError('current_password');
              }}
              error={submit.errors.current_password}
            />
            <div className="sm:pt-[34px]">
              <CheckboxField
                name="read_only"
                label={T.readOnly}
                checked={form.readOnly}
                onChange={(readOnly) => setForm((f) => ({ ...f, readOnly }))}
              />
            </div>
            <div className="sm:pt-[26px]">
              <SaveButton saving={submit.saving} label={T.create} busyLabel={T.creating} className="w-full sm:w-auto" />
            </div>
          </div>
        </form>
        {created && <NewKeyBox key={created.id} created={created} onDismiss={() => setCreated(null)} />}
        {(listError ?? rowDelete.error) && <Alert tone="error">{listError ?? rowDelete.error}</Alert>}
        <DataTable columns={columns} rows={keys.map((k) => apiKeyRow(k))} rowKey={(r) => r.id} loading={loading} />
      </div>
      <ConfirmDialog confirmation={confirmation} onClose={() => setConfirmation(null)} />
    </Card>
  );
}
