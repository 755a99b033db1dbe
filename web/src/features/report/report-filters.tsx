import { inputClass } from '../../components/form-field';
import type { Option } from './api';

const labelClass = 'mb-1.5 block text-xs font-medium text-gray-600 dark:text-gray-400';

function OptionSelect({
  id,
  label,
  all,
  value,
  options,
  onChange,
}: {
  id: string;
  label: string;
  all: string;
  value: number | undefined;
  options: Option[] | null;
  onChange(value: number | undefined): void;
}) {
  // a chosen id the options do not hold (a link, a deleted account) stays visible as a choice
  const known = value === undefined || options === null || options.some((o) => o.value === value);
  return (
    <div className="w-full sm:w-56">
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <select
        id={id}
        className={inputClass}
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value ? Number(e.target.value) : undefined)}
      >
        <option value="">{options === null ? 'Memuat...' : all}</option>
        {!known && <option value={value}>#{value}</option>}
        {options?.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export interface FilterValues {
  from: string;
  to: string;
  userId?: number;
  whatsappId?: number;
}

/**
 * The report's filters: the days (both included), and for admin, dev and staff the member, then
 * the account (narrowed to the member chosen). Each change applies at once.
 */
export function ReportFilters({
  values,
  members,
  accounts,
  onChange,
}: {
  values: FilterValues;
  /** null while loading; 'hidden' for a member, whose report is their own */
  members: Option[] | null | 'hidden';
  accounts: Option[] | null;
  onChange(patch: Partial<FilterValues>): void;
}) {
  const shown = accounts && values.userId ? accounts.filter((a) => a.userId === values.userId) : accounts;
  return (
    <div className="mb-4 flex flex-wrap items-end gap-3" data-testid="report-filters">
      <div className="w-full sm:w-44">
        <label htmlFor="report-from" className={labelClass}>
          Dari tanggal
        </label>
        <input
          id="report-from"
          name="from"
          type="date"
          className={inputClass}
          value={values.from}
          max={values.to || undefined}
          onChange={(e) => onChange({ from: e.target.value })}
        />
      </div>
      <div className="w-full sm:w-44">
        <label htmlFor="report-to" className={labelClass}>
          Sampai tanggal
        </label>
        <input
          id="report-to"
          name="to"
          type="date"
          className={inputClass}
          value={values.to}
          min={values.from || undefined}
          onChange={(e) => onChange({ to: e.target.value })}
        />
      </div>
      {members !== 'hidden' && (
        <OptionSelect
          id="report-member"
          label="Member"
          all="Semua member"
          value={values.userId}
          options={members}
          onChange={(userId) => {
            // an account of another member would empty the report: the account choice goes too
            const keep = accounts?.find((a) => a.value === values.whatsappId)?.userId === userId;
            onChange({ userId, whatsappId: userId === undefined || keep ? values.whatsappId : undefined });
          }}
        />
      )}
      <OptionSelect
        id="report-account"
        label="Akun WhatsApp"
        all="Semua akun"
        value={values.whatsappId}
        options={shown}
        onChange={(whatsappId) => onChange({ whatsappId })}
      />
    </div>
  );
}
