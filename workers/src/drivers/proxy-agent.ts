import type { Agent } from 'node:http';
import { HttpProxyAgent } from 'http-proxy-agent';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { SocksProxyAgent } from 'socks-proxy-agent';
import type { ProxyConfig } from './types';

/** The proxy as a URL, credentials encoded (a password may hold `@` or `:`). */
export function proxyUrl(proxy: ProxyConfig): string {
  const auth = proxy.username
    ? `${encodeURIComponent(proxy.username)}:${encodeURIComponent(proxy.password ?? '')}@`
    : '';
  return `${proxy.protocol}://${auth}${proxy.host}:${proxy.port}`;
}

/**
 * An agent that reaches `target` ('https:' for WebSockets over TLS and uploads, 'http:' for plain
 * HTTP) through the proxy: SOCKS4/5 (with or without credentials) for both, an HTTP(S) proxy by
 * CONNECT for TLS and by absolute URL for plain HTTP.
 */
export function proxyAgent(
  proxy: ProxyConfig | null | undefined,
  target: 'https:' | 'http:' = 'https:',
): Agent | undefined {
  if (!proxy) return undefined;
  const url = proxyUrl(proxy);
  if (proxy.protocol === 'socks4' || proxy.protocol === 'socks5') return new SocksProxyAgent(url);
  return target === 'https:' ? new HttpsProxyAgent(url) : new HttpProxyAgent(url);
}
