import { z } from 'zod';
import { PROXY_STATUSES, type ProxyStatus } from '../constants';
import { pagedOf, requiredText } from './common';
import { importOutcome, importSkippedRow } from './phone-numbers';

/** A proxy as the API returns it (§3 Proxy). */
export interface ProxyDto {
  id: number;
  value: string;
  status: ProxyStatus;
  count_use: number;
  /** the last health check through it (ISO), its latency, and why it failed (null: it worked, or never checked) */
  checked_at: string | null;
  latency_ms: number | null;
  check_error: string | null;
}

/**
 * Normalises a proxy: `host:port`, `user:pass@host:port`, or either behind http://, https://,
 * socks4:// or socks5://. Returns null when it is none of those.
 */
export function normalizeProxy(input: string): string | null {
  const s = input.trim();
  const m =
    /^(?:(https?|socks4|socks5):\/\/)?(?:([^\s:@/]+):([^\s@/]+)@)?([A-Za-z0-9.-]+|\[[0-9a-fA-F:]+\]):(\d{1,5})\/?$/i.exec(
      s,
    );
  if (!m) return null;
  const port = Number(m[5]);
  if (port < 1 || port > 65535) return null;
  const scheme = m[1] ? `${m[1].toLowerCase()}://` : '';
  const auth = m[2] ? `${m[2]}:${m[3]}@` : '';
  return `${scheme}${auth}${m[4].toLowerCase()}:${port}`;
}

const proxyValue = requiredText('Proxy is required.', 512).transform((v, ctx) => {
  const n = normalizeProxy(v);
  if (!n) {
    ctx.addIssue({ code: 'custom', message: `"${v}" is not a proxy (host:port or user:pass@host:port).` });
    return z.NEVER;
  }
  return n;
});

/** POST /admin/proxy/save. */
export const saveProxyBody = z.object({ value: proxyValue });

/** PUT /admin/proxy/{id}: the value and the status toggle. */
export const updateProxyBody = z.object({
  value: proxyValue.optional(),
  status: z.enum(PROXY_STATUSES, { error: 'Status must be active, in use or nonactive.' }).optional(),
});

/** The export file names and columns of §9. */
export const PROXY_EXPORT = { csv: 'proxies.csv', json: 'proxies.json', columns: ['value', 'status'] } as const;

/** POST /admin/proxy/import: the created proxies and the skipped rows (their key also as `value`). */
export const proxyImportResult = importOutcome.extend({
  created: z.array(
    z.object({ id: z.number().int(), value: z.string(), status: z.enum(PROXY_STATUSES), count_use: z.number().int() }),
  ),
  skipped: z.array(importSkippedRow.extend({ value: z.string() })),
});

/** The schema of ProxyDto. */
export const proxyDto = z.object({
  id: z.number().int(),
  value: z.string(),
  status: z.enum(PROXY_STATUSES),
  count_use: z.number().int(),
  checked_at: z.string().nullable().describe('the last health check through it (ISO time)'),
  latency_ms: z.number().nullable(),
  check_error: z.string().nullable().describe('why the last check failed; null: it worked, or never checked'),
});

/** GET /admin/proxy/list */
export const proxyList = z.object({ list: z.array(proxyDto) });

/** GET /admin/proxy/list-per-page */
export const proxyPage = pagedOf(proxyDto);

/** GET /admin/proxy/{id} */
export const proxyResponse = z.object({ proxy: proxyDto });

/** POST /admin/proxy/save (201) and PUT /admin/proxy/{id} */
export const savedProxy = z.object({ proxy: proxyDto, msg: z.string() });
