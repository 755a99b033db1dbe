import { fieldErrors } from '@wa/shared';
import { useState } from 'react';
import type { z } from 'zod';
import { ApiCallError } from '../api/client';

export interface Submit {
  /** the call is on its way: the button reads 'Menyimpan...' */
  saving: boolean;
  /** 'Error: …' above the form (§8) */
  error: string | null;
  setError(text: string | null): void;
  /** the message under each field: the schema's, or the server's after a refusal */
  errors: Record<string, string>;
  setErrors(errors: Record<string, string>): void;
  /** drops a field's message once the user edits the field */
  clearError(field: string): void;
  /** runs `send`; a refusal shows 'Error: <the server's message or `fallback`>' and its field messages */
  run(send: () => Promise<void>, fallback?: string): Promise<void>;
  /** checks `values` with `schema` first: its messages under the fields, or `send` with what it parsed */
  submit<O>(schema: z.ZodType<O>, values: unknown, send: (data: O) => Promise<void>): Promise<void>;
}

/**
 * A form's save: the saving flag, the error line and the field messages, the same on every form
 * (§5 validation, §8 'Error: …'). The form says what to send and where to go after.
 */
export function useSubmit(): Submit {
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const run = async (send: () => Promise<void>, fallback = 'Network error. Please try again.') => {
    setError(null);
    setSaving(true);
    try {
      await send();
    } catch (err) {
      const apiErr = err instanceof ApiCallError ? err : null;
      setErrors(apiErr?.errors ?? {});
      setError(`Error: ${apiErr?.message ?? fallback}`);
    } finally {
      setSaving(false);
    }
  };

  return {
    saving,
    error,
    setError,
    errors,
    setErrors,
    clearError: (field) => setErrors(({ [field]: _, ...rest }) => rest),
    run,
    async submit(schema, values, send) {
      setError(null);
      const parsed = schema.safeParse(values);
      if (!parsed.success) {
        setErrors(fieldErrors(parsed.error));
        return;
      }
      setErrors({});
      await run(() => send(parsed.data));
    },
  };
}
