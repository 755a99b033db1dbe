import { normalizeRole, TOOL_DEFAULT_INTERVAL, type ToolAccountRef, type WhatsappDto } from '@wa/shared';
import { type FormEvent, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { accountsApi } from '../../api/accounts';
import { errorText } from '../../api/client';
import { type Submit, useSubmit } from '../../lib/use-submit';
import { useAuth } from '../auth/auth-context';
import { type ToolDto, type ToolKind, toolFormErrors } from './tool-rows';

/** The fields both tools have, as typed: the account, b_insert and the pause between checks (§5). */
export type ToolFields = {
  whatsapp_id: string;
  b_insert: boolean;
  interval_min: string;
  interval_max: string;
};

export const TOOL_FIELDS: ToolFields = {
  whatsapp_id: '',
  b_insert: false,
  interval_min: String(TOOL_DEFAULT_INTERVAL.min),
  interval_max: String(TOOL_DEFAULT_INTERVAL.max),
};

/** The shared fields of a tool being edited. */
export function toolFields(dto: ToolDto): ToolFields {
  return {
    whatsapp_id: dto.whatsapp_id ? String(dto.whatsapp_id) : '',
    b_insert: dto.b_insert === 1,
    interval_min: String(dto.interval_min),
    interval_max: String(dto.interval_max),
  };
}

/** An account the tool may run on: its id and number. */
export type AccountChoice = Pick<WhatsappDto, 'id' | 'phonenumber'>;

/**
 * The connected accounts of `userId` (GET /admin/whatsapp/list/{userId}?synced=true, §7) — or, for
 * dev (`anyAccount`), every connected account, since a dev runs tools on anyone's — plus the tool's
 * current account when it is no longer connected, so an edit still shows it.
 */
export function useAccountChoices(userId: number | undefined, current: ToolAccountRef | null, anyAccount = false) {
  const [accounts, setAccounts] = useState<AccountChoice[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    if (!userId) return;
    let live = true;
    setLoading(true);
    (anyAccount ? accountsApi.all() : accountsApi.synced(userId))
      .then(({ list }) => live && setAccounts(list.filter((a) => a.state === 'connected')))
      .catch((err) => live && setError(errorText(err, 'Error fetching WhatsApp list')))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [userId, anyAccount]);
  const choices = current && !accounts.some((a) => a.id === current.id) ? [current, ...accounts] : accounts;
  return { choices, error, loading };
}

export interface ToolFormOptions<F extends ToolFields, D extends ToolDto, I> {
  kind: ToolKind;
  /** 'Generator' / 'Validator', for 'Error fetching …' */
  name: string;
  empty: F;
  /** module-level, like `toForm`, so they stay the same */
  load(id: number): Promise<D>;
  toForm(dto: D): F;
  schema: z.ZodType<I>;
}

/**
 * The state of /generator/create and /validator/create (?id= edits, §5): the form, the tool being
 * edited, the owner's connected accounts, the messages (the §5 order messages as soon as the
 * fields contradict each other, all of them after a submit, then the server's), and the save,
 * which goes back to the tool's list.
 */
export function useToolForm<F extends ToolFields, D extends ToolDto, I>({
  kind,
  name,
  empty,
  load,
  toForm,
  schema,
}: ToolFormOptions<F, D, I>) {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || null;
  const navigate = useNavigate();
  const { user } = useAuth();
  const submit: Submit = useSubmit();
  const [form, setForm] = useState(empty);
  const [loaded, setLoaded] = useState<D | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const { setError } = submit;

  useEffect(() => {
    if (!id) return;
    load(id)
      .then((dto) => {
        setForm(toForm(dto));
        setLoaded(dto);
      })
      .catch((err) => setError(`Error: ${errorText(err, `Error fetching ${name}`)}`));
  }, [id, load, toForm, name, setError]);

  // the account choices are the owner's: a dev editing another user's tool sees that user's accounts
  const owner = loaded ? loaded.user_id : undefined;
  const accounts = useAccountChoices(
    id && owner === undefined ? undefined : (owner ?? user?.id),
    loaded?.Whatsapp ?? null,
    normalizeRole(user?.role) === 'dev',
  );

  const edit = <K extends keyof F>(k: K, v: F[K]) => {
    setForm((f) => ({ ...f, [k]: v }));
    submit.clearError(String(k));
  };

  /** Checks the form (and `ready`, the page's own fields), then sends what the schema parsed. */
  const save =
    (send: (data: I) => Promise<unknown>, ready = true) =>
    (e: FormEvent) => {
      e.preventDefault();
      submit.setError(null);
      setSubmitted(true);
      const parsed = schema.safeParse(form);
      if (!parsed.success || !ready) return;
      void submit.run(async () => {
        await send(parsed.data);
        navigate(`/${kind}/list`);
      });
    };

  return {
    id,
    form,
    edit,
    loaded,
    accounts,
    /** the messages under the fields */
    errors: { ...toolFormErrors(schema, form, submitted), ...submit.errors },
    submit,
    save,
  };
}

export type ToolForm = ReturnType<typeof useToolForm<ToolFields, ToolDto, unknown>>;
