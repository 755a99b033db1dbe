import type { ReportRow, Role } from '@wa/shared';
import { useEffect, useState } from 'react';
import { errorText } from '../../api/client';
import { type Option, reportApi } from './api';

export interface ReportOptions {
  /** the member select's options; null while loading or for a member (who has no such select) */
  members: Option[] | null;
  /** the account select's options; null while loading */
  accounts: Option[] | null;
  error: string | null;
}

/** Adds the options of `add` that `list` lacks (to none: sorts `add`), sorted by label. */
function merge(list: Option[] | null, add: Option[]): Option[] {
  const byValue = new Map((list ?? []).map((o) => [o.value, o]));
  for (const o of add) if (!byValue.has(o.value)) byValue.set(o.value, o);
  return [...byValue.values()].sort((a, b) => a.label.localeCompare(b.label));
}

/**
 * The report's member and account choices. Admin and dev load every member and account; a member
 * their own accounts. Staff may read the report but not the member or account lists (users.list
 * and account.list-all are admin and dev only), so staff choose among the members and accounts the
 * report has shown so far.
 */
export function useReportOptions(role: Role, userId: number, rows: ReportRow[]): ReportOptions {
  const [members, setMembers] = useState<Option[] | null>(null);
  const [accounts, setAccounts] = useState<Option[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (role === 'staff') return;
    let live = true;
    const fail = (err: unknown) => live && setError(errorText(err, 'Internal server error'));
    if (role === 'member') {
      reportApi.ownAccounts(userId).then((a) => live && setAccounts(merge(null, a)), fail);
    } else {
      reportApi.members().then((m) => live && setMembers(merge(null, m)), fail);
      reportApi.allAccounts().then((a) => live && setAccounts(merge(null, a)), fail);
    }
    return () => {
      live = false;
    };
  }, [role, userId]);

  useEffect(() => {
    if (role !== 'staff') return;
    setMembers((list) =>
      merge(
        list,
        rows.map((r) => ({ value: r.user_id, label: r.name })),
      ),
    );
    setAccounts((list) =>
      merge(
        list,
        // a deleted account's rows (negative id) cannot be filtered on
        rows
          .filter((r) => r.whatsapp_id > 0)
          .map((r) => ({ value: r.whatsapp_id, label: r.phonenumber ?? `#${r.whatsapp_id}`, userId: r.user_id })),
      ),
    );
  }, [role, rows]);

  return { members: role === 'member' ? null : members, accounts, error };
}
