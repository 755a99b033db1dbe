import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import {
  assertWebhookUrl,
  isPublicAddress,
  limitLookups,
  literalAllowed,
  parseWebhookUrl,
  publicLookup,
} from './address';

describe('isPublicAddress', () => {
  it('accepts public unicast addresses only', () => {
    for (const ip of ['93.184.215.14', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect(isPublicAddress(ip), ip).toBe(true);
    }
    for (const ip of [
      '127.0.0.1',
      '127.8.9.10',
      '10.0.0.1',
      '172.16.5.4',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '255.255.255.255',
      '224.0.0.1',
      '192.0.2.1',
      '198.18.0.1',
      '::',
      '::1',
      'fe80::1',
      'fd12:3456::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      '2001:db8::1',
      // IPv4-compatible IPv6 (::/96, deprecated): ::127.0.0.1 as URL writes it, and around it
      '::7f00:1',
      '::a00:1',
      '::808:808',
      '::1:0:0:1',
      '100::1',
      'not-an-ip',
      '',
    ]) {
      expect(isPublicAddress(ip), ip).toBe(false);
    }
  });
});

describe('webhook URLs', () => {
  const refusal = async (raw: string, any = false) => {
    try {
      await assertWebhookUrl(raw, any);
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).status).toBe(400);
      return (err as AppError).message;
    }
    return null;
  };

  it('admins may name any http(s) address; nobody may put credentials or other schemes in it', async () => {
    expect(await refusal('http://127.0.0.1:8080/hook', true)).toBeNull();
    expect(await refusal('http://intranet.local/hook', true)).toBeNull();
    expect(await refusal('https://u:p@example.com/', true)).toMatch(/user name or password/);
    expect(await refusal('gopher://example.com/', true)).toMatch(/valid http/);
    expect(await refusal('file:///etc/passwd', true)).toMatch(/valid http/);
    expect(() => parseWebhookUrl('::nope')).toThrow(/valid http/);
  });

  it('others: https only, to a public address', async () => {
    expect(await refusal('https://93.184.215.14/hook')).toBeNull();
    expect(await refusal('https://[2606:4700:4700::1111]/hook')).toBeNull();
    expect(await refusal('http://93.184.215.14/hook')).toMatch(/https:\/\//);
    expect(await refusal('https://127.0.0.1/hook')).toMatch(/public internet address/);
    expect(await refusal('https://[::1]/hook')).toMatch(/public internet address/);
    expect(await refusal('https://localhost/hook')).toMatch(/public internet address/);
    expect(await refusal('https://0x7f000001/hook')).toMatch(/public internet address/);
    expect(await refusal('https://2130706433/hook')).toMatch(/public internet address/);
  });

  it('refuses IPv4-compatible IPv6 (::/96) however it is written, and keeps mapped ones judged as IPv4', async () => {
    for (const raw of ['https://[::127.0.0.1]/hook', 'https://[::7f00:1]/hook', 'https://[::8.8.8.8]/hook']) {
      expect(await refusal(raw), raw).toMatch(/public internet address/);
      expect(literalAllowed(new URL(raw)), raw).toBe(false);
    }
    expect(await refusal('https://[::ffff:127.0.0.1]/hook')).toMatch(/public internet address/);
    expect(await refusal('https://[::ffff:8.8.8.8]/hook')).toBeNull();
    expect(literalAllowed(new URL('https://[::ffff:8.8.8.8]/'))).toBe(true);
  });

  it('at delivery, an IP literal is judged at once and a name at its connection', async () => {
    expect(literalAllowed(new URL('https://93.184.215.14/'))).toBe(true);
    expect(literalAllowed(new URL('https://10.0.0.1/'))).toBe(false);
    expect(literalAllowed(new URL('https://[::1]/'))).toBe(false);
    expect(literalAllowed(new URL('https://example.com/'))).toBe(true);
    const err = await new Promise<Error | null>((resolve) =>
      publicLookup('localhost', { all: false }, (e) => resolve(e as Error | null)),
    );
    expect(err?.message).toMatch(/localhost resolves to .*not a public address/);
  });

  it("lets at most two members' lookups hold the thread pool; the others wait their turn, and every one is answered", async () => {
    const pending: Array<() => void> = [];
    let peak = 0;
    let running = 0;
    const slow = limitLookups((host, _options, callback) => {
      running += 1;
      peak = Math.max(peak, running);
      // a name server that takes its time: answered when the test says so
      pending.push(() => {
        running -= 1;
        callback(null, [{ address: `93.184.215.${host.length}`, family: 4 }]);
      });
    }, 2);
    const answers = Array.from(
      { length: 5 },
      (_, i) =>
        new Promise<string>((resolve) =>
          slow(`h${'x'.repeat(i)}`, { all: true, verbatim: true }, (_e, a) => resolve(a[0]?.address ?? '')),
        ),
    );
    expect(pending.length).toBe(2);
    while (pending.length) pending.shift()?.();
    expect(await Promise.all(answers)).toEqual([
      '93.184.215.1',
      '93.184.215.2',
      '93.184.215.3',
      '93.184.215.4',
      '93.184.215.5',
    ]);
    expect(peak).toBe(2);
  });
});
