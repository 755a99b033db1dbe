import { describe, expect, it } from 'vitest';
import { normalizeRole } from './constants';
import { canOpen, menuFor, ROUTE_ROLES } from './routes';

describe('the route table of §2', () => {
  it('opens the shared screens to every role', () => {
    for (const role of ['member', 'staff', 'dev', 'admin'] as const) {
      for (const path of ['/', '/dashboard', '/profile', '/whatsapp/create']) expect(canOpen(role, path)).toBe(true);
    }
  });

  it('keeps each screen to its roles', () => {
    expect(canOpen('member', '/withdraw')).toBe(true);
    expect(canOpen('admin', '/withdraw')).toBe(false);
    expect(canOpen('staff', '/whatsapp')).toBe(false);
    expect(canOpen('staff', '/withdraw/requested')).toBe(true);
    expect(canOpen('member', '/member')).toBe(false);
    expect(canOpen('admin', '/member/whatsapp')).toBe(true);
    expect(canOpen('admin', '/monitor/realtime')).toBe(false);
    expect(canOpen('dev', '/monitor/realtime')).toBe(true);
    for (const role of ['member', 'staff', 'dev', 'admin'] as const) expect(canOpen(role, '/report')).toBe(true);
    expect(canOpen('admin', '/no/such/screen')).toBe(false);
  });

  it('opens the campaigns to their advertiser and the operator only (issue 22)', () => {
    for (const role of ['client', 'admin', 'dev'] as const) {
      for (const path of ['/campaigns', '/campaigns/:id', '/', '/profile']) expect(canOpen(role, path)).toBe(true);
    }
    for (const role of ['member', 'staff'] as const) {
      for (const path of ['/campaigns', '/campaigns/:id']) expect(canOpen(role, path)).toBe(false);
    }
    for (const path of ['/member', '/whatsapp', '/whatsapp/create', '/report', '/settings', '/withdraw', '/bonus']) {
      expect(canOpen('client', path), path).toBe(false);
    }
    expect(menuFor('client').map((i) => i.path)).toEqual(['/campaigns', '/profile']);
    expect(menuFor('dev').map((i) => i.path)).toContain('/campaigns');
  });

  it('gives dev every protected route', () => {
    for (const path of Object.keys(ROUTE_ROLES)) expect(canOpen('dev', path)).toBe(true);
  });

  it('lists only screens the role may open in its menu', () => {
    for (const role of ['member', 'staff', 'dev', 'admin', 'client'] as const) {
      const items = menuFor(role).flatMap((i) => i.children ?? [i]);
      for (const item of items.filter((i) => !i.external)) {
        expect(canOpen(role, item.path), `${role} ${item.path}`).toBe(true);
      }
    }
  });

  it('has the admin menu of §2 in order', () => {
    expect(menuFor('admin').map((i) => i.path)).toEqual([
      '/',
      '/phonenumber',
      '/member',
      '/generator/list',
      '/validator/list',
      '/message',
      '/campaigns',
      '/withdraw/requested',
      '/report',
      '/bonus',
      '/referral',
      '/level',
      '/proxy',
      '/settings',
      '/profile',
    ]);
    expect(menuFor('staff').map((i) => i.path)).toEqual([
      '/withdraw/requested',
      '/report',
      '/generator/list',
      '/validator/list',
      '/profile',
    ]);
    expect(menuFor('dev').slice(0, 4)).toEqual(menuFor('admin').slice(0, 4));
    expect(menuFor('member').map((i) => i.path)).toEqual([
      '/',
      '/whatsapp',
      '/report',
      '/withdraw',
      '/bonus',
      '/referral',
      '/profile',
      'https://t.me/wablaster',
    ]);
    expect(menuFor('member').at(-1)?.external).toBe(true);
  });

  it('treats any other role as admin (§6)', () => {
    expect(normalizeRole('superuser')).toBe('admin');
    expect(normalizeRole('member')).toBe('member');
    expect(normalizeRole('client')).toBe('client');
    expect(normalizeRole('')).toBeNull();
  });
});
