import { inputClass } from './form-field';

export type ActiveStatusValue = 'active' | 'nonactive';

/** The Status select of the template forms (a template, a campaign's variant): active or nonactive. */
export function StatusSelect({
  id,
  value,
  onChange,
}: {
  id: string;
  value: ActiveStatusValue;
  onChange(value: ActiveStatusValue): void;
}) {
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-400">
        Status
      </label>
      <select
        id={id}
        name="status"
        className={inputClass}
        value={value}
        onChange={(e) => onChange(e.target.value as ActiveStatusValue)}
      >
        <option value="active">active</option>
        <option value="nonactive">nonactive</option>
      </select>
    </div>
  );
}
