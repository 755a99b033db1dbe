import { type CreatedWebhook, normalizeRole, type WebhookDto } from '@wa/shared';
import { Copy, Webhook, X } from 'lucide-react';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { errorText } from '../../api/client';
import { Alert } from '../../components/alert';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { CheckboxField } from '../../components/checkbox-field';
import { type Column, DataTable } from '../../components/data-table';
import { type Confirmation, ConfirmDialog } from '../../components/dialogs';
import { FormField } from '../../components/form-field';
import { Modal } from '../../components/modal';
import { Card } from '../../components/page-breadcrumb';
import { SaveButton } from '../../components/save-button';
import { useRowDelete } from '../../lib/use-row-delete';
import { useSubmit } from '../../lib/use-submit';
import { useAuth } from '../auth/auth-context';
import { webhooksApi } from './api';
import {
  createWebhookInput,
  type DeliveryRow,
  deliveryRow,
  EMPTY_WEBHOOK_FORM,
  toggleEvent,
  WEBHOOK_UI,
  type WebhookForm,
  type WebhookRow,
  webhookEventsFor,
  webhookRow,
  withCreatedWebhook,
  withId,
  withUpdatedWebhook,
} from './webhooks';

const T = WEBHOOK_UI;

const link = 'whitespace-nowrap hover:underline disabled:cursor-not-allowed disabled:opacity-50';
const grayLink = `${link} text-gray-600 dark:text-gray-300`;

/** Row ids marked (a call on its way, a body shown), and a way to mark one or not. */
function useIdSet(): [ReadonlySet<number>, (id: number, on: boolean) => void] {
  const [ids, setIds] = useState<ReadonlySet<number>>(new Set());
  return [ids, useCallback((id: number, on: boolean) => setIds((s) => withId(s, id, on)), [])];
}

/** The endpoint just made and its signing secret, shown this once until dismissed or replaced. */
function NewSecretBox({ created, onDismiss }: { created: CreatedWebhook; onDismiss(): void }) {
  const [copyMsg, setCopyMsg] = useState<{ ok: boolean; text: string } | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.secret);
      setCopyMsg({ ok: true, text: T.copied });
    } catch {
      setCopyMsg({ ok: false, text: T.copyFailed });
    }
  };
  return (
    <div
      className="space-y-3 rounded-xl border border-yellow-500 bg-yellow-50 p-4 dark:border-yellow-500/30 dark:bg-yellow-500/15"
      data-testid="new-webhook"
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-sm font-semibold break-all text-gray-800 dark:text-white/90">
            {T.newSecret}: {created.url}
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
          value={created.secret}
          aria-label={T.newSecret}
          data-testid="new-webhook-secret"
          onFocus={(e) => e.currentTarget.select()}
          className="h-11 w-full rounded-lg border border-gray-300 bg-white px-4 font-mono text-sm text-gray-800 dark:border-gray-700 dark:bg-gray-900 dark:text-white/90"
        />
        <Button variant="outline" onClick={copy}>
          <Copy size={16} /> {T.copy}
        </Button>
      </div>
      <p className="text-xs text-gray-600 dark:text-gray-400">{T.signature}</p>
      {copyMsg && <Alert tone={copyMsg.ok ? 'success' : 'error'}>{copyMsg.text}</Alert>}
    </div>
  );
}

/** One endpoint's latest deliveries, each body viewable and each one sendable again. */
function DeliveriesModal({ hook, onClose }: { hook: WebhookRow | null; onClose(): void }) {
  const [rows, setRows] = useState<DeliveryRow[]>([]);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [shown, markShown] = useIdSet();
  const [resending, markResending] = useIdSet();
  const hookId = hook?.id ?? null;

  const load = useCallback(async (id: number) => {
    setLoading(true);
    try {
      setRows((await webhooksApi.deliveries(id)).map((d) => deliveryRow(d)));
      setError(null);
    } catch (err) {
      setError(errorText(err, T.deliveriesFallback));
    } finally {
      setLoading(false);
    }
  }, []);

  // the parent keys this dialog by the endpoint, so each one starts empty
  useEffect(() => {
    if (hookId !== null) void load(hookId);
  }, [hookId, load]);

  const resend = async (r: DeliveryRow) => {
    if (hookId === null) return;
    markResending(r.id, true);
    try {
      await webhooksApi.resend(hookId, r.id);
      await load(hookId);
    } catch (err) {
      setError(errorText(err));
    } finally {
      markResending(r.id, false);
    }
  };

  const columns: Column<DeliveryRow>[] = [
    { header: T.deliveryColumns.event, cell: (r) => <code className="font-mono whitespace-nowrap">{r.event}</code> },
    { header: T.deliveryColumns.status, cell: (r) => <Badge tone={r.tone}>{r.status}</Badge> },
    { header: T.deliveryColumns.attempts, cell: (r) => r.attempts },
    { header: T.deliveryColumns.http, cell: (r) => r.http },
    { header: T.deliveryColumns.error, cell: (r) => <span className="break-words">{r.error}</span> },
    { header: T.deliveryColumns.time, cell: (r) => <span className="whitespace-nowrap">{r.time}</span> },
    {
      header: T.action,
      cell: (r) => (
        <div className="flex gap-3">
          <button type="button" className={grayLink} onClick={() => markShown(r.id, !shown.has(r.id))}>
            {shown.has(r.id) ? T.hideBody : T.showBody}
          </button>
          <button
            type="button"
            className={`${link} text-brand-500`}
            disabled={resending.has(r.id)}
            onClick={() => void resend(r)}
          >
            {resending.has(r.id) ? T.resending : T.resend}
          </button>
        </div>
      ),
    },
  ];

  return (
    <Modal open={hook !== null} onClose={onClose} title={T.deliveriesTitle} className="max-w-5xl!">
      <div className="space-y-4" data-testid="webhook-deliveries">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="min-w-0">
            <p className="font-mono text-sm break-all text-gray-800 dark:text-white/90">{hook?.url}</p>
            <p className="text-sm text-gray-500 dark:text-gray-400">{T.deliveriesIntro}</p>
          </div>
          <Button size="sm" variant="outline" disabled={loading} onClick={() => hookId !== null && void load(hookId)}>
            {T.refresh}
          </Button>
        </div>
        {error && <Alert tone="error">{error}</Alert>}
        <DataTable
          columns={columns}
          rows={rows}
          rowKey={(r) => r.id}
          loading={loading}
          expanded={(r) =>
            shown.has(r.id) ? (
              <pre className="max-h-64 overflow-auto font-mono text-xs whitespace-pre-wrap break-all">{r.body}</pre>
            ) : null
          }
        />
      </div>
    </Modal>
  );
}

/** The profile's Webhook section: add an endpoint (its secret shown once), list, pause, delete, deliveries. */
export function WebhooksCard() {
  const { user } = useAuth();
  // the events this role may choose (a client's webhooks take only campaign events)
  const events = webhookEventsFor(normalizeRole(user?.role));
  const [hooks, setHooks] = useState<WebhookDto[]>([]);
  const [loading, setLoading] = useState(true);
  const [listError, setListError] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [form, setForm] = useState<WebhookForm>(EMPTY_WEBHOOK_FORM);
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const [viewing, setViewing] = useState<WebhookRow | null>(null);
  const [toggling, markToggling] = useIdSet();
  const submit = useSubmit();
  const rowDelete = useRowDelete(webhooksApi.remove, (id) => {
    setHooks((list) => list.filter((w) => w.id !== id));
    setCreated((c) => (c?.id === id ? null : c));
  });

  const reload = useCallback(async () => {
    try {
      setHooks(await webhooksApi.list());
      setListError(null);
    } catch (err) {
      setListError(errorText(err, T.fetchFallback));
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);

  const create = (e: FormEvent) => {
    e.preventDefault();
    const checked = createWebhookInput(form);
    submit.setError(null);
    if (!checked.ok) {
      submit.setErrors(checked.errors);
      return;
    }
    submit.setErrors({});
    void submit.run(async () => {
      const made = await webhooksApi.create(checked.body);
      setHooks((list) => withCreatedWebhook(list, made));
      setCreated(made);
      setForm(EMPTY_WEBHOOK_FORM);
    });
  };

  const setActive = async (r: WebhookRow, active: boolean) => {
    setActionError(null);
    markToggling(r.id, true);
    try {
      const updated = await webhooksApi.update(r.id, { active });
      setHooks((list) => withUpdatedWebhook(list, updated));
    } catch (err) {
      setActionError(errorText(err));
    } finally {
      markToggling(r.id, false);
    }
  };

  const askRemove = (r: WebhookRow) =>
    setConfirmation({
      title: T.confirmTitle,
      text: T.confirmText(r.url),
      confirm: T.confirm,
      cancel: T.cancel,
      danger: true,
      onConfirm: () => void rowDelete.remove(r.id),
    });

  // a resend changes the endpoint's latest delivery: read the list again when the dialog closes
  const closeDeliveries = useCallback(() => {
    setViewing(null);
    void reload();
  }, [reload]);

  const columns: Column<WebhookRow>[] = [
    {
      header: T.columns.url,
      cell: (r) => (
        <div className="min-w-48">
          <p className="font-medium break-all text-gray-800 dark:text-white/90">{r.url}</p>
          {r.description && <p className="text-xs text-gray-500 dark:text-gray-400">{r.description}</p>}
        </div>
      ),
    },
    {
      header: T.columns.events,
      cell: (r) => (
        <div className="flex max-w-72 flex-wrap gap-1">
          {r.events.map((ev) => (
            <Badge key={ev} tone="brand">
              {ev}
            </Badge>
          ))}
        </div>
      ),
    },
    { header: T.columns.state, cell: (r) => <Badge tone={r.active ? 'success' : 'warning'}>{r.state}</Badge> },
    {
      header: T.columns.lastDelivery,
      cell: (r) => (
        <div className="flex flex-col items-start gap-1 whitespace-nowrap">
          {r.lastStatus && <Badge tone={r.lastTone}>{r.lastStatus}</Badge>}
          <span>{r.lastDelivery}</span>
        </div>
      ),
    },
    {
      header: T.action,
      cell: (r) =>
        rowDelete.isDeleting(r.id) ? (
          <span className="text-gray-500">{T.removing}</span>
        ) : (
          <div className="flex gap-3">
            <button type="button" onClick={() => setViewing(r)} className={`${link} text-brand-500`}>
              {T.deliveries}
            </button>
            <button
              type="button"
              disabled={toggling.has(r.id)}
              onClick={() => void setActive(r, !r.active)}
              className={grayLink}
            >
              {toggling.has(r.id) ? T.saving : r.active ? T.pause : T.resume}
            </button>
            <button type="button" onClick={() => askRemove(r)} className={`${link} text-red-500`}>
              {T.remove}
            </button>
          </div>
        ),
    },
  ];

  const rowsError = listError ?? actionError ?? rowDelete.error;

  return (
    <Card>
      <div className="mb-2 flex flex-wrap items-center justify-between gap-3">
        <h4 className="flex items-center gap-2 text-lg font-semibold text-gray-800 dark:text-white/90">
          <Webhook size={18} /> {T.title}
        </h4>
        {!loading && !listError && <Badge>{T.count(hooks.length)}</Badge>}
      </div>
      <p className="mb-5 text-sm text-gray-500 dark:text-gray-400">{T.intro}</p>
      <div className="space-y-5">
        <form onSubmit={create} noValidate className="space-y-4" data-testid="webhook-form">
          {submit.error && <Alert tone="error">{submit.error}</Alert>}
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <FormField
              label={T.url}
              name="url"
              type="url"
              placeholder={T.urlPlaceholder}
              maxLength={2000}
              value={form.url}
              onChange={(e) => {
                setForm((f) => ({ ...f, url: e.target.value }));
                submit.clearError('url');
              }}
              error={submit.errors.url}
            />
            <FormField
              label={T.description}
              name="description"
              placeholder={T.descriptionPlaceholder}
              maxLength={200}
              value={form.description}
              onChange={(e) => {
                setForm((f) => ({ ...f, description: e.target.value }));
                submit.clearError('description');
              }}
              error={submit.errors.description}
            />
          </div>
          <fieldset>
            <legend className="mb-1.5 text-sm font-medium text-gray-700 dark:text-gray-400">{T.events}</legend>
            <div className="grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-3">
              {events.map((ev) => (
                <CheckboxField
                  key={ev}
                  name={`event:${ev}`}
                  label={ev}
                  checked={form.events.includes(ev)}
                  onChange={(on) => {
                    setForm((f) => ({ ...f, events: toggleEvent(f.events, ev, on) }));
                    submit.clearError('events');
                  }}
                />
              ))}
            </div>
            {submit.errors.events && (
              <p className="mt-1.5 text-xs text-red-500" data-field-error="events">
                {submit.errors.events}
              </p>
            )}
          </fieldset>
          <SaveButton saving={submit.saving} label={T.create} busyLabel={T.creating} className="w-full sm:w-auto" />
        </form>
        {created && <NewSecretBox key={created.id} created={created} onDismiss={() => setCreated(null)} />}
        {rowsError && <Alert tone="error">{rowsError}</Alert>}
        <div data-testid="webhook-table">
          <DataTable columns={columns} rows={hooks.map((w) => webhookRow(w))} rowKey={(r) => r.id} loading={loading} />
        </div>
      </div>
      <ConfirmDialog confirmation={confirmation} onClose={() => setConfirmation(null)} />
      <DeliveriesModal key={viewing?.id ?? 0} hook={viewing} onClose={closeDeliveries} />
    </Card>
  );
}
