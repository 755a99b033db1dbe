import { describe, expect, it } from 'vitest';
import { CHECK_REASON_MAX, PROXY_CHECK_TEXTS, proxyCheckView, truncate } from './proxy-check';

const at = '2026-01-02T03:04:05.000Z';
const fmt = (iso: string) => `<${iso}>`;

describe('proxyCheckView', () => {
  it('shows a never-checked proxy as muted "Belum dicek"', () => {
    expect(proxyCheckView({ checked_at: null, latency_ms: null, check_error: null }, fmt)).toEqual({
      kind: 'never',
      text: 'Belum dicek',
    });
  });

  it('shows the latency of a working check in green, with the check time as the tooltip', () => {
    expect(proxyCheckView({ checked_at: at, latency_ms: 123, check_error: null }, fmt)).toEqual({
      kind: 'ok',
      text: '123 ms',
      tone: 'success',
      title: `Dicek <${at}>`,
    });
    expect(proxyCheckView({ checked_at: at, latency_ms: 87.6, check_error: null }, fmt).text).toBe('88 ms');
    expect(proxyCheckView({ checked_at: at, latency_ms: 0, check_error: null }, fmt).text).toBe('0 ms');
    expect(proxyCheckView({ checked_at: at, latency_ms: null, check_error: null }, fmt).text).toBe('OK');
  });

  it('shows a failed check as a red "Gagal" with its reason, even when a latency is left over', () => {
    const v = proxyCheckView({ checked_at: at, latency_ms: 50, check_error: 'ECONNREFUSED' }, fmt);
    expect(v).toEqual({
      kind: 'failed',
      text: 'Gagal',
      tone: 'error',
      title: `Dicek <${at}>`,
      reason: 'ECONNREFUSED',
      reasonTitle: 'ECONNREFUSED',
    });
  });

  it('cuts a long reason and keeps the full one for the tooltip; an empty one still fails', () => {
    const long = `timeout ${'x'.repeat(200)}`;
    const v = proxyCheckView({ checked_at: at, latency_ms: null, check_error: long }, fmt);
    if (v.kind !== 'failed') throw new Error(`expected failed, got ${v.kind}`);
    expect(v.reason.length).toBe(CHECK_REASON_MAX);
    expect(v.reason.endsWith('…')).toBe(true);
    expect(v.reasonTitle).toBe(long);

    const empty = proxyCheckView({ checked_at: at, latency_ms: null, check_error: ' ' }, fmt);
    expect(empty).toMatchObject({ kind: 'failed', reason: PROXY_CHECK_TEXTS.unknownError });
  });
});

describe('truncate', () => {
  it('leaves short texts alone', () => {
    expect(truncate('abc', 5)).toBe('abc');
    expect(truncate('abcde', 5)).toBe('abcde');
    expect(truncate('abcdef', 5)).toBe('abcd…');
  });
});
