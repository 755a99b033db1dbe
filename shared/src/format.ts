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
 * A formula start right after a place where a spreadsheet may begin a new cell inside our value:
 * a comma, a semicolon (the list separator of id-ID Excel and LibreOffice), a tab (pasting into a
 * sheet splits on it) or a line break (a reader that ignores quotes starts a row there). No
 * lookbehind: Safari before 16.4 refuses the whole bundle on one.
 */
const INNER_FORMULA_START = /[,;\t\r\n](?=[=+\-@\t\r])/g;
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",;\t\n\r]/;

/**
 * A CSV cell that a spreadsheet will not run as a formula (OWASP CSV injection): a = + - @ tab or
 * CR at the start or after a , ; tab or line break gets a quote mark in front, and the cell is
 * quoted when it holds a comma, semicolon, tab, quote or line break, so that a `;`-separated
 * (Indonesian locale) sheet keeps it whole too. A leading `+` is marked as well: our numbers are
 * stored as 62… and never start with one, so it only reaches free text, where `+62812` would
 * otherwise lose its plus as the number 62812 and `+1+2` would run.
 */
export function csvCell(value: unknown): string {
  // a number is never a formula: a negative one (a margin) stays a number in the spreadsheet
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  let s = value === null || value === undefined ? '' : String(value);
  s = s.replace(INNER_FORMULA_START, "$&'");
  if (FORMULA_START.test(s)) s = `'${s}`;
  return NEEDS_QUOTES.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
