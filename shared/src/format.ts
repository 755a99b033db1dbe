/** Pure formatting helpers shared by the server and the web app. */

const rupiah = new Intl.NumberFormat('id-ID', {
  style: 'currency',
  currency: 'IDR',
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});

/** Whole rupiah in the id-ID locale without decimals, e.g. `Rp 10.000`. */
export function formatRupiah(value: number | null | undefined): string {
  // Intl puts a no-break space after "Rp"; a plain space reads the same and matches the spec texts.
  return rupiah.format(Math.round(Number(value ?? 0))).replace(/\u00a0/g, ' ');
}

const FAST_LOCAL = /^0\d{7,13}$/;
const FAST_INTL = /^62\d{7,13}$/;

/**
 * Normalises an Indonesian phone number to the 62 prefix: strips spaces, dashes, dots, brackets
 * and a leading +; 08… becomes 628…, 8… becomes 628…. Returns null when the result is not a
 * plausible number (62 followed by 7 to 13 digits).
 */
export function normalizePhone(input: string | number | null | undefined): string | null {
  if (input === null || input === undefined) return null;
  // the common shapes first, without building intermediate strings (imports run this a million times)
  if (typeof input === 'string') {
    if (FAST_LOCAL.test(input)) return `62${input.slice(1)}`;
    if (FAST_INTL.test(input)) return input;
  }
  let s = String(input)
    .trim()
    .replace(/[\s\-.()]/g, '');
  if (s.startsWith('+')) s = s.slice(1);
  if (!/^\d+$/.test(s)) return null;
  if (s.startsWith('0')) s = `62${s.slice(1)}`;
  else if (s.startsWith('8')) s = `62${s}`;
  if (!/^62\d{7,13}$/.test(s)) return null;
  return s;
}

/** The client id of §4/§9: `id-{timestamp}-{random 0-9999}`. */
export function newClientId(now: number = Date.now(), random: () => number = Math.random): string {
  return `id-${now}-${Math.floor(random() * 10_000)}`;
}

/** Humanises a camelCase state for display: `loggedOut` → `Logged Out`. */
export function humanizeState(state: string | null | undefined): string {
  if (!state) return '';
  const spaced = state.replace(/([a-z])([A-Z])/g, '$1 $2');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** The spec's e-mail rule (§5): text, at-sign, text, dot, text, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * A CSV cell that a spreadsheet will not run as a formula: a leading = + - @ tab or CR is
 * neutralised with a quote mark, and the cell is quoted when it holds a comma, quote or newline.
 */
export function csvCell(value: unknown): string {
  let s = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
