import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { WEBHOOK_TEXTS } from '@wa/shared';
import ipaddr from 'ipaddr.js';
import { AppError } from '../errors';

/**
 * Where a webhook may point (issue 13's guard against server-side request forgery): an endpoint
 * whose owner is not an admin or dev may reach only public HTTPS addresses, so a member cannot use
 * webhooks to reach the operator's internal services. The address is checked when the endpoint is
 * saved and again on every connection (`publicLookup`), so a name that resolves to a public address
 * at registration and to an internal one later (DNS rebinding) is still refused.
 */

/** True for an address on the public internet: not private, loopback, link-local, CGNAT, multicast, reserved, documentation… */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  // an IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  if (ip.kind() === 'ipv6' && !isGlobalUnicastV6(ip as ipaddr.IPv6)) return false;
  return ip.range() === 'unicast';
}

/**
 * Whether an IPv6 address is in 2000::/3, the only block IANA hands out as global unicast.
 * ipaddr.js calls everything it has no name for "unicast", so without this the deprecated
 * IPv4-compatible block ::/96 passed: https://[::127.0.0.1]/ (which URL writes [::7f00:1]) reaches
 * 127.0.0.1 on some stacks. Mapped addresses (::ffff:0:0/96) are unwrapped before this.
 */
function isGlobalUnicastV6(ip: ipaddr.IPv6): boolean {
  return (ip.parts[0] & 0xe000) === 0x2000;
}

/** The host of a URL as `net` wants it ([::1] → ::1). */
function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** The URL, if it is one a webhook may have at all: http(s), no credentials in it. */
export function parseWebhookUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError(400, WEBHOOK_TEXTS.badUrl);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new AppError(400, WEBHOOK_TEXTS.badUrl);
  if (url.username || url.password) throw new AppError(400, WEBHOOK_TEXTS.noCredentials);
  return url;
}

type AllLookup = (
  host: string,
  options: LookupAllOptions & { verbatim: true },
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * `lookup` with at most `max` calls in flight; the others wait their turn. getaddrinfo runs on
 * libuv's thread pool (4 threads, shared with file access and crypto), so the names of members'
 * webhooks, whose name servers anyone can make slow, may hold at most `max` of its threads.
 */
export function limitLookups(lookup: AllLookup, max: number): AllLookup {
  let running = 0;
  const waiting: Array<() => void> = [];
  return (host, options, callback) => {
    const run = () => {
      running += 1;
      lookup(host, options, (err, addresses) => {
        running -= 1;
        waiting.shift()?.();
        callback(err, addresses);
      });
    };
    if (running < max) run();
    else waiting.push(run);
  };
}

/** Lookups of restricted owners' webhook hosts (see limitLookups). */
const restrictedLookup = limitLookups(dnsLookup as unknown as AllLookup, 2);

function resolveAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) =>
    restrictedLookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );
}

/**
 * Checks a URL a user wants a webhook at: any http(s) URL for an admin or dev (`anyAddress`); for
 * everyone else https only, to a host whose every address is public. Throws a 400 AppError.
 */
export async function assertWebhookUrl(raw: string, anyAddress: boolean): Promise<URL> {
  const url = parseWebhookUrl(raw);
  if (anyAddress) return url;
  if (url.protocol !== 'https:') throw new AppError(400, WEBHOOK_TEXTS.httpsOnly);
  const host = hostOf(url);
  if (isIP(host)) {
    if (!isPublicAddress(host)) throw new AppError(400, WEBHOOK_TEXTS.notPublic);
    return url;
  }
  let addresses: LookupAddress[];
  try {
    addresses = await resolveAll(host);
  } catch {
    throw new AppError(400, WEBHOOK_TEXTS.unresolvable(host));
  }
  if (!addresses.length || !addresses.every((a) => isPublicAddress(a.address))) {
    throw new AppError(400, WEBHOOK_TEXTS.notPublic);
  }
  return url;
}

/** The error a connection to a non-public address fails with. */
export class NotPublicAddressError extends Error {
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, which is not a public address`);
    this.name = 'NotPublicAddressError';
  }
}

/**
 * A `lookup` for http(s).request that resolves as usual but refuses a non-public address: the
 * connection goes to the address checked, never to one a second resolution returns.
 */
export const publicLookup: LookupFunction = (hostname, options, callback) => {
  restrictedLookup(hostname, { ...options, all: true, verbatim: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const list = addresses as LookupAddress[];
    const bad = list.find((a) => !isPublicAddress(a.address));
    if (bad || !list.length) {
      return callback(new NotPublicAddressError(hostname, bad?.address ?? 'nothing'), '', 0);
    }
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    callback(null, list[0].address, list[0].family);
  });
};

/** Whether a delivery to this URL may go ahead for a restricted owner (an IP literal skips `lookup`). */
export function literalAllowed(url: URL): boolean {
  const host = hostOf(url);
  return !isIP(host) || isPublicAddress(host);
}
