import { API_KEY_CAP, type ApiKeyDto, type CreatedApiKey, createApiKeyBody, fieldErrors } from '@wa/shared';
import type { z } from 'zod';

/** What POST /api/admin/apikeys takes. */
export type CreateApiKeyInput = z.output<typeof createApiKeyBody>;

/** The texts of the profile's API Key section. */
export const API_KEY_UI = {
  title: 'API Key',
  intro:
    'Aplikasi lain dapat memakai API key sebagai pengganti login: kirim di header X-API-Key. Key bertindak sebagai Anda.',
  /** issue 24: what ends every key, said where keys are made */
  revokedWhen: 'Mengubah password atau "Sign out everywhere" mencabut semua API key Anda.',
  name: 'Nama',
  namePlaceholder: 'mis. Integrasi CRM',
  currentPassword: 'Password Saat Ini',
  currentPasswordPlaceholder: 'Wajib untuk membuat key',
  readOnly: 'Hanya baca (read-only)',
  create: 'Buat API Key',
  creating: 'Membuat...',
  newKey: 'API key baru',
  once: 'Simpan key ini sekarang — tidak akan ditampilkan lagi.',
  copy: 'Salin',
  copied: 'Key disalin ke clipboard.',
  copyFailed: 'Gagal menyalin key. Salin secara manual.',
  dismiss: 'Tutup',
  columns: { name: 'Nama', prefix: 'Awalan', access: 'Akses', lastUsed: 'Terakhir dipakai', created: 'Dibuat' },
  action: 'Aksi',
  revoke: 'Cabut',
  revoking: 'Mencabut...',
  readOnlyAccess: 'Baca saja',
  readWriteAccess: 'Baca & tulis',
  never: 'Belum pernah',
  count: (n: number) => `${n} dari ${API_KEY_CAP} key`,
  confirmTitle: 'Apakah Anda yakin ?',
  confirmText: (name: string) =>
    `API key "${name}" akan dicabut. Aplikasi yang memakainya langsung ditolak, dan ini tidak bisa dibatalkan.`,
  confirm: 'Ya, Cabut.',
  cancel: 'Batal',
  fetchFallback: 'Error fetching API keys',
  /** under the profile modal's password field, and after a change that revoked keys */
  passwordChangeRevokes: 'Mengubah password juga mencabut semua API key Anda.',
  revokedCount: (n: number) => `${n} API key dicabut.`,
} as const;

/** The create form as typed. */
export interface ApiKeyForm {
  name: string;
  readOnly: boolean;
  /** the user's password: a key outlives the session, so the session alone makes none */
  currentPassword: string;
}

/**
 * The create form checked with the shared schema: the body to POST (name trimmed, read_only always
 * sent, the password as typed), or the message under each field.
 */
export function createKeyBody(
  form: ApiKeyForm,
): { ok: true; body: CreateApiKeyInput } | { ok: false; errors: Record<string, string> } {
  const parsed = createApiKeyBody.safeParse({
    name: form.name,
    read_only: form.readOnly,
    current_password: form.currentPassword,
  });
  if (!parsed.success) return { ok: false, errors: fieldErrors(parsed.error) };
  return {
    ok: true,
    body: {
      name: parsed.data.name,
      read_only: parsed.data.read_only ?? false,
      current_password: parsed.data.current_password,
    },
  };
}

/** A date of the table: day and time in the browser's zone, '-' when it cannot be read. */
export function formatWhen(iso: string, timeZone?: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '-';
  return d.toLocaleString('id-ID', { dateStyle: 'medium', timeStyle: 'short', timeZone });
}

/** One row of the keys table, as shown. */
export interface ApiKeyRow {
  id: number;
  name: string;
  prefix: string;
  access: string;
  lastUsed: string;
  created: string;
}

export function apiKeyRow(dto: ApiKeyDto, timeZone?: string): ApiKeyRow {
  return {
    id: dto.id,
    name: dto.name,
    prefix: `${dto.prefix}…`,
    access: dto.read_only ? API_KEY_UI.readOnlyAccess : API_KEY_UI.readWriteAccess,
    lastUsed: dto.last_used_at ? formatWhen(dto.last_used_at, timeZone) : API_KEY_UI.never,
    created: formatWhen(dto.created_at, timeZone),
  };
}

/** The list after a create: the new key first (the server lists newest first), without the key itself. */
export function withCreated(list: readonly ApiKeyDto[], created: CreatedApiKey): ApiKeyDto[] {
  const { key: _key, ...dto } = created;
  return [dto, ...list.filter((k) => k.id !== dto.id)];
}
