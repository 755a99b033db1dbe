import { API_KEY_TEXTS, type ApiKeyDto, type CreatedApiKey } from '@wa/shared';
import { describe, expect, it } from 'vitest';
import { API_KEY_UI, apiKeyRow, createKeyBody, formatWhen, withCreated } from './api-keys';

const dto: ApiKeyDto = {
  id: 4,
  name: 'CRM',
  prefix: 'wab_AbC1',
  read_only: true,
  last_used_at: null,
  created_at: '2026-03-05T02:30:00.000Z',
};

describe('createKeyBody', () => {
  const pw = 'rahasia123';

  it('trims the name, always sends read_only, and sends the password as typed', () => {
    expect(createKeyBody({ name: '  CRM  ', readOnly: false, currentPassword: ` ${pw}` })).toEqual({
      ok: true,
      body: { name: 'CRM', read_only: false, current_password: ` ${pw}` },
    });
    expect(createKeyBody({ name: 'Laporan', readOnly: true, currentPassword: pw })).toEqual({
      ok: true,
      body: { name: 'Laporan', read_only: true, current_password: pw },
    });
  });

  it('asks for a name (blank counts as none) of at most 60 characters', () => {
    expect(createKeyBody({ name: '   ', readOnly: false, currentPassword: pw })).toEqual({
      ok: false,
      errors: { name: 'Name is required.' },
    });
    expect(createKeyBody({ name: 'x'.repeat(61), readOnly: false, currentPassword: pw })).toEqual({
      ok: false,
      errors: { name: 'Name must be at most 60 characters.' },
    });
    expect(createKeyBody({ name: 'x'.repeat(60), readOnly: false, currentPassword: pw }).ok).toBe(true);
  });

  it('asks for the current password (issue 24)', () => {
    expect(createKeyBody({ name: 'CRM', readOnly: false, currentPassword: '' })).toEqual({
      ok: false,
      errors: { current_password: API_KEY_TEXTS.passwordRequired },
    });
  });
});

describe('formatWhen', () => {
  it('shows the day and time in the given zone, and "-" for what is not a date', () => {
    const jakarta = formatWhen('2026-03-05T02:30:00.000Z', 'Asia/Jakarta');
    expect(jakarta).toContain('2026');
    expect(jakarta).toContain('09.30');
    expect(formatWhen('2026-03-05T02:30:00.000Z', 'UTC')).toContain('02.30');
    expect(formatWhen('not a date')).toBe('-');
  });
});

describe('apiKeyRow', () => {
  it('cuts the prefix with an ellipsis, names the access, and says a key was never used', () => {
    expect(apiKeyRow(dto, 'UTC')).toEqual({
      id: 4,
      name: 'CRM',
      prefix: 'wab_AbC1…',
      access: 'Baca saja',
      lastUsed: 'Belum pernah',
      created: formatWhen(dto.created_at, 'UTC'),
    });
  });

  it('shows read-write access and the last use', () => {
    const row = apiKeyRow({ ...dto, read_only: false, last_used_at: '2026-03-06T10:00:00.000Z' }, 'UTC');
    expect(row.access).toBe(API_KEY_UI.readWriteAccess);
    expect(row.access).toBe('Baca & tulis');
    expect(row.lastUsed).not.toBe(API_KEY_UI.never);
    expect(row.lastUsed).toContain('10.00');
  });
});

describe('withCreated', () => {
  it('puts the new key first and never keeps the key itself in the list', () => {
    const created: CreatedApiKey = { ...dto, id: 9, name: 'Baru', key: 'wab_secret-value' };
    const list = withCreated([dto], created);
    expect(list.map((k) => k.id)).toEqual([9, 4]);
    expect(list[0]).not.toHaveProperty('key');
    expect(JSON.stringify(list)).not.toContain('wab_secret-value');
  });

  it('does not list a key twice', () => {
    const created: CreatedApiKey = { ...dto, key: 'wab_x' };
    expect(withCreated([dto], created)).toHaveLength(1);
  });
});
