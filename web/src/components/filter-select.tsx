import { inputClass } from './form-field';

/** A list's 'Filter Status' select (§2): 'Semua' keeps every row, each option one status. */
export function FilterSelect({
  id,
  value,
  options,
  onChange,
  className,
}: {
  id: string;
  value: string;
  options: { value: string; label: string }[];
  onChange(value: string): void;
  className: string;
}) {
  return (
    <div className={className}>
      <label htmlFor={id} className="sr-only">
        Filter Status
      </label>
      <select id={id} name="status" className={inputClass} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Semua</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
