import { OPERATING_ROLES, ROLES, ROUTE_ROLES, type Role } from '@wa/shared';
import { describe, expect, it } from 'vitest';
import type { Actor } from './actor';
import { AppError } from './errors';
import { type Ability, assertCan, can, canForAnyone, type Resource } from './policy';

const ME = 1;
const actor = (role: Role): Actor => ({ id: ME, role });
const mine: Resource = { userId: ME };
const theirs: Resource = { userId: 2 };
/** The roles that may do `ability` (to `resource`, when given), in ROLES order. */
const who = (ability: Ability, resource?: Resource) => ROLES.filter((role) => can(actor(role), ability, resource));
const sorted = (roles: readonly Role[]) => [...roles].sort();

function refusal(fn: () => void): { status: number; msg: string } | null {
  try {
    fn();
    return null;
  } catch (err) {
    if (err instanceof AppError) return { status: err.status, msg: err.message };
    throw err;
  }
}

describe('the policy table against the §2 route table', () => {
  // the API behind each screen lets in exactly the roles that may open the screen
  const screens: [string, Ability][] = [
    ['/member', 'users.list'],
    ['/member/edit', 'user.manage'],
    ['/phonenumber', 'catalogue.manage'],
    ['/message', 'catalogue.manage'],
    ['/proxy', 'catalogue.manage'],
    ['/level', 'catalogue.manage'],
    ['/settings', 'settings.update'],
    ['/bonus', 'bonus.read'],
    ['/bonus/create', 'bonus.give'],
    ['/referral', 'referral.read'],
    ['/withdraw', 'withdraw.request'],
    ['/report', 'report.read'],
    ['/withdraw/requested', 'withdraw.handle'],
    ['/generator/list', 'tool.manage'],
    ['/validator/list', 'tool.manage'],
    ['/profile', 'user.edit'],
    ['/whatsapp/create', 'account.create-login'],
    ['/monitor/local', 'monitor'],
    ['/monitor/remote', 'monitor'],
    ['/monitor/socket', 'monitor'],
  ];
  for (const [path, ability] of screens) {
    it(`${path}: ${ability}`, () => {
      expect(sorted(who(ability))).toEqual(sorted(ROUTE_ROLES[path] ?? []));
    });
  }
});

describe('the policy table against §6', () => {
  it('only admin and dev load the member list; everybody reads and edits their own profile', () => {
    expect(who('users.list')).toEqual(['dev', 'admin']);
    expect(who('user.read', mine)).toEqual([...ROLES]);
    expect(who('user.read', theirs)).toEqual(['dev', 'admin']);
    expect(who('user.edit', theirs)).toEqual(['dev', 'admin']);
  });

  it('only a dev grants or removes dev; an admin leaves other admins’ and devs’ credentials alone', () => {
    expect(who('user.grant-dev')).toEqual(['dev']);
    const over = (role: Role) => who('user.credentials', { userId: 2, role });
    expect(over('member')).toEqual(['dev', 'admin']);
    expect(over('staff')).toEqual(['dev', 'admin']);
    expect(over('admin')).toEqual(['dev']);
    expect(over('dev')).toEqual(['dev']);
    expect(who('user.credentials', { userId: ME, role: 'admin' })).toEqual([...ROLES]);
  });

  it('members see their own money; admin and dev anyone’s; staff reads no counters', () => {
    expect(who('counters.read', mine)).toEqual(['member', 'dev', 'admin']);
    expect(who('counters.read', theirs)).toEqual(['dev', 'admin']);
    expect(who('bonus.read', theirs)).toEqual(['dev', 'admin']);
    expect(who('referral.read', theirs)).toEqual(['dev', 'admin']);
    expect(who('first-run.read')).toEqual(['dev', 'admin']);
  });

  it('withdraw: member and dev request for themselves, the handlers read all, only admin decides and sees bank details', () => {
    expect(who('withdraw.request', mine)).toEqual(['member', 'dev']);
    expect(who('withdraw.request', theirs)).toEqual([]);
    // every role of the spec its own; an advertiser (issue 22's client) has none
    expect(who('withdraw.read', mine)).toEqual([...OPERATING_ROLES]);
    expect(who('withdraw.read', theirs)).toEqual(['staff', 'dev', 'admin']);
    expect(who('withdraw.decide')).toEqual(['admin']);
    expect(who('withdraw.bank-details', theirs)).toEqual(['admin']);
    expect(who('withdraw.bank-details', mine)).toEqual([...ROLES]);
  });

  it('the tools: admin and staff their own, dev all (§6 "lists fetched without a user filter")', () => {
    expect(who('tool.manage', mine)).toEqual(['staff', 'dev', 'admin']);
    expect(who('tool.manage', theirs)).toEqual(['dev']);
    expect(who('tool.manage', { userId: null })).toEqual(['dev']);
    expect(ROLES.filter((role) => canForAnyone(actor(role), 'tool.manage'))).toEqual(['dev']);
  });

  it('WhatsApp accounts: owners and admin/dev read; Start/Stop Blast and Reconnect for members and dev; activation and lifting a pause for admin and dev', () => {
    expect(who('account.read', mine)).toEqual([...OPERATING_ROLES]);
    expect(who('account.read', theirs)).toEqual(['dev', 'admin']);
    expect(who('account.list-all')).toEqual(['dev', 'admin']);
    expect(who('account.blast', mine)).toEqual(['member', 'dev']);
    expect(who('account.blast', theirs)).toEqual(['dev']);
    expect(who('account.reconnect', theirs)).toEqual(['dev']);
    expect(who('account.activate')).toEqual(['dev', 'admin']);
    expect(who('account.lift-pause')).toEqual(['dev', 'admin']);
    expect(who('account.status')).toEqual(['dev', 'admin']);
    expect(who('account.send')).toEqual(['member', 'dev', 'admin']);
    expect(who('account.send', theirs)).toEqual(['dev', 'admin']);
    expect(who('account.send-any-number')).toEqual(['dev', 'admin']);
    expect(who('account.create-login', theirs)).toEqual(['dev', 'admin']);
  });

  it('the monitors are the dev’s; settings are read by every role of the spec and written by admin and dev', () => {
    expect(who('monitor')).toEqual(['dev']);
    expect(who('settings.read')).toEqual([...OPERATING_ROLES]);
    expect(who('receivers.read')).toEqual(['member', 'dev', 'admin']);
  });
});

describe('assertCan', () => {
  it('answers the generic 403 when the role may not, and the rule’s own texts where it has them', () => {
    expect(refusal(() => assertCan(actor('staff'), 'withdraw.request'))).toEqual({
      status: 403,
      msg: 'You are not allowed to do this.',
    });
    expect(refusal(() => assertCan(actor('member'), 'withdraw.request', theirs))).toEqual({
      status: 403,
      msg: 'You can only request a withdrawal for yourself.',
    });
    expect(refusal(() => assertCan(actor('admin'), 'user.grant-dev'))?.msg).toBe(
      'Only a dev may grant or remove the dev role.',
    );
    expect(refusal(() => assertCan(actor('staff'), 'tool.manage', theirs, 'Not yours.'))?.msg).toBe('Not yours.');
    expect(refusal(() => assertCan(actor('member'), 'withdraw.request', mine))).toBeNull();
    expect(refusal(() => assertCan(actor('dev'), 'tool.manage', theirs))).toBeNull();
  });

  it('campaigns (issue 22): a client their own, admins and devs everyone’s; approval, price and priority the operator’s', () => {
    expect(who('campaign.read', mine)).toEqual(['dev', 'admin', 'client']);
    expect(who('campaign.read', theirs)).toEqual(['dev', 'admin']);
    expect(who('campaign.manage', mine)).toEqual(['dev', 'admin', 'client']);
    expect(who('campaign.manage', theirs)).toEqual(['dev', 'admin']);
    expect(who('campaign.approve')).toEqual(['dev', 'admin']);
    expect(who('campaign.price')).toEqual(['dev', 'admin']);
    // and nothing of the members' business
    for (const ability of ['account.read', 'withdraw.read', 'report.read', 'counters.read', 'settings.read'] as const) {
      expect(who(ability, mine), ability).not.toContain('client');
    }
  });
});
