import { type FormEvent, type ReactNode, useId } from 'react';
import { useNavigate } from 'react-router';
import { Alert } from '../../components/alert';
import { CheckboxField } from '../../components/checkbox-field';
import { FormField, inputClass } from '../../components/form-field';
import { Card, PageBreadcrumb } from '../../components/page-breadcrumb';
import { SaveButton } from '../../components/save-button';
import type { ToolKind } from './tool-rows';
import type { AccountChoice, ToolForm } from './use-tool-form';

/** The account option that sends the user to connect a new WhatsApp account (§5). */
export const NEW_ACCOUNT = 'new';

/** The account select: id and number of each account, and 'new' which goes to /whatsapp/create?type= (§5). */
export function AccountSelect({
  kind,
  choices,
  loading,
  value,
  onChange,
  error,
}: {
  kind: ToolKind;
  choices: AccountChoice[];
  loading: boolean;
  value: string;
  onChange(value: string): void;
  error?: string | null;
}) {
  const id = useId();
  const navigate = useNavigate();
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-400">
        Akun Whatsapp
      </label>
      <select
        id={id}
        name="whatsapp_id"
        className={`${inputClass} ${error ? 'border-red-500 dark:border-red-500' : ''}`}
        aria-invalid={error ? true : undefined}
        value={value}
        onChange={(e) => {
          onChange(e.target.value);
          if (e.target.value === NEW_ACCOUNT) navigate(`/whatsapp/create?type=${kind}`);
        }}
      >
        <option value="">{loading ? 'Memuat akun...' : 'Pilih Akun'}</option>
        {choices.map((a) => (
          <option key={a.id} value={String(a.id)}>
            {`${a.id} - ${a.phonenumber ?? '-'}`}
          </option>
        ))}
        <option value={NEW_ACCOUNT}>+ Tambah Akun Baru</option>
      </select>
      {error && (
        <p className="mt-1.5 text-xs text-red-500" data-field-error="whatsapp_id">
          {error}
        </p>
      )}
    </div>
  );
}

/** Interval min and max in seconds, numeric inputs side by side from the small breakpoint (§5). */
export function IntervalFields({
  min,
  max,
  onChange,
  errors,
}: {
  min: string;
  max: string;
  onChange(field: 'interval_min' | 'interval_max', value: string): void;
  errors: Record<string, string>;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <FormField
        label="Interval Min (detik)"
        name="interval_min"
        type="number"
        inputMode="numeric"
        min={0}
        step={1}
        value={min}
        onChange={(e) => onChange('interval_min', e.target.value)}
        error={errors.interval_min}
      />
      <FormField
        label="Interval Max (detik)"
        name="interval_max"
        type="number"
        inputMode="numeric"
        min={0}
        step={1}
        value={max}
        onChange={(e) => onChange('interval_max', e.target.value)}
        error={errors.interval_max}
      />
    </div>
  );
}

/**
 * The card of /generator/create and /validator/create (§2, §5): the error lines, the account, the
 * tool's own fields (`children`), the interval, b_insert and 'Simpan'.
 */
export function ToolFormCard({
  kind,
  title,
  tool,
  errors,
  blocked,
  onSubmit,
  children,
}: {
  kind: ToolKind;
  title: string;
  tool: ToolForm;
  /** the form's messages, the page's own included */
  errors: Record<string, string>;
  /** 'Simpan' stays disabled (a field still empty, the new-account choice) */
  blocked: boolean;
  onSubmit(e: FormEvent): void;
  children: ReactNode;
}) {
  const { form, edit, accounts, submit } = tool;
  return (
    <>
      <PageBreadcrumb title={title} />
      <Card className="max-w-2xl">
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          {submit.error && <Alert tone="error">{submit.error}</Alert>}
          {accounts.error && <Alert tone="error">{accounts.error}</Alert>}
          <AccountSelect
            kind={kind}
            choices={accounts.choices}
            loading={accounts.loading}
            value={form.whatsapp_id}
            onChange={(v) => edit('whatsapp_id', v)}
            error={errors.whatsapp_id}
          />
          {children}
          <IntervalFields
            min={form.interval_min}
            max={form.interval_max}
            onChange={(k, v) => edit(k, v)}
            errors={errors}
          />
          {/* b_insert: the numbers found on WhatsApp also go into the target phone-number list */}
          <CheckboxField
            name="b_insert"
            label="Masukkan hasil ke Daftar Phone Number"
            checked={form.b_insert}
            onChange={(v) => edit('b_insert', v)}
          />
          <SaveButton
            saving={submit.saving}
            disabled={blocked || form.whatsapp_id === NEW_ACCOUNT}
            className="w-full sm:w-auto"
          />
        </form>
      </Card>
    </>
  );
}
