import { Loader2 } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { Button } from '../../components/button';
import { inputClass } from '../../components/form-field';
import type { ViewType } from './json-ranges';

/** The spinner of §2 Monitor while data or the socket is on its way. */
export function Spinner({ label = 'Memuat...' }: { label?: string }) {
  return (
    <div role="status" data-testid="monitor-spinner" className="flex items-center gap-2 py-6 text-sm text-gray-500">
      <Loader2 size={18} className="animate-spin text-brand-500" />
      {label}
    </div>
  );
}

/** The id a monitor looks at (?id=): a client id or a user id, changed by submitting. */
export function IdForm({
  label,
  placeholder,
  value,
  onSubmit,
}: {
  label: string;
  placeholder: string;
  value: string;
  onSubmit(id: string): void;
}) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit(draft.trim());
  };
  return (
    <form onSubmit={submit} className="flex w-full flex-wrap items-end gap-2 sm:w-auto">
      <label className="flex min-w-0 flex-1 flex-col gap-1.5 text-sm font-medium text-gray-700 sm:w-72 sm:flex-none dark:text-gray-400">
        {label}
        <input
          name="id"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          placeholder={placeholder}
          autoComplete="off"
          className={inputClass}
        />
      </label>
      <Button type="submit" className="h-11">
        Buka
      </Button>
    </form>
  );
}

const VIEW_TYPES: { type: ViewType; label: string }[] = [
  { type: 'string', label: 'string' },
  { type: 'JsonViewer', label: 'JsonViewer' },
  { type: 'JSONTree', label: 'JSONTree' },
];

/** The three views of ?type= (§2 Monitor). */
export function ViewTypeSwitch({ value, onChange }: { value: ViewType; onChange(type: ViewType): void }) {
  return (
    <fieldset className="inline-flex overflow-hidden rounded-lg ring-1 ring-gray-300 dark:ring-gray-700">
      <legend className="sr-only">Tampilan</legend>
      {VIEW_TYPES.map((v) => (
        <button
          key={v.type}
          type="button"
          aria-pressed={value === v.type}
          onClick={() => onChange(v.type)}
          className={`px-3 py-2 text-xs font-medium transition ${
            value === v.type
              ? 'bg-brand-500 text-white'
              : 'bg-white text-gray-700 hover:bg-gray-50 dark:bg-gray-800 dark:text-gray-300 dark:hover:bg-white/[0.03]'
          }`}
        >
          {v.label}
        </button>
      ))}
    </fieldset>
  );
}
