import { type InputHTMLAttributes, type ReactNode, useId } from 'react';

export const inputClass =
  'h-11 w-full rounded-lg border border-gray-300 bg-transparent px-4 py-2.5 text-sm text-gray-800 shadow-xs placeholder:text-gray-400 focus:border-brand-300 focus:ring-3 focus:ring-brand-500/10 focus:outline-hidden dark:border-gray-700 dark:bg-gray-900 dark:text-white/90 dark:placeholder:text-white/30 dark:focus:border-brand-800';

/** A labelled input with its error underneath; the one form field of the app. */
export function FormField({
  label,
  error,
  hint,
  right,
  className = '',
  ...input
}: InputHTMLAttributes<HTMLInputElement> & {
  label: ReactNode;
  error?: string | null;
  hint?: ReactNode;
  right?: ReactNode;
}) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={input.id ?? id} className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-400">
        {label}
      </label>
      <div className="relative">
        <input
          id={input.id ?? id}
          aria-invalid={error ? true : undefined}
          className={`${inputClass} ${error ? 'border-red-500 focus:border-red-300 focus:ring-red-500/10 dark:border-red-500' : ''} ${right ? 'pr-11' : ''}`}
          {...input}
        />
        {right && <span className="absolute top-1/2 right-4 -translate-y-1/2">{right}</span>}
      </div>
      {error ? (
        <p className="mt-1.5 text-xs text-red-500" data-field-error={input.name}>
          {error}
        </p>
      ) : hint ? (
        <p className="mt-1.5 text-xs text-gray-500 dark:text-gray-400">{hint}</p>
      ) : null}
    </div>
  );
}
