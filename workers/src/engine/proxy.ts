import type { ProxyConfig } from '../drivers/types';

/** Parses a stored proxy value (`[scheme://][user:pass@]host:port`) for a driver. */
export function parseProxy(value: string | null | undefined): ProxyConfig | null {
  if (!value) return null;
  const m =
    /^(?:(https?|socks4|socks5):\/\/)?(?:([^\s:@/]+):([^\s@/]+)@)?([^\s:@/]+|\[[0-9a-fA-F:]+\]):(\d{1,5})$/i.exec(
      value.trim(),
    );
  if (!m) return null;
  const protocol = (m[1]?.toLowerCase() ?? 'http') as ProxyConfig['protocol'];
  return {
    protocol,
    host: m[4] ?? '',
    port: Number(m[5]),
    ...(m[2] ? { username: m[2], password: m[3] ?? '' } : {}),
  };
}
