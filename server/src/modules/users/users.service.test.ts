import type { Actor } from '@wa/core/actor';
import { InProcessBus } from '@wa/core/realtime/bus';
import { TOKEN_VERSION_CHANNEL } from '@wa/core/realtime/publish';
import { as, refused } from '@wa/core/testing/refusals';
import { API_KEY_TEXTS, type Role, type UserDto } from '@wa/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from './passwords';
import type { UserPatch } from './users.repo';
import {
  CREDENTIAL_CHANGES_PER_USER,
  CURRENT_PASSWORD_REQUIRED,
  CURRENT_PASSWORD_WRONG,
  type UpdateUserInput,
  UsersService,
  type UsersStore,
} from './users.service';

/** The users table in memory: what UsersRepo answers, without SQL. */
class MemoryUsers implements UsersStore {
  readonly rows = new Map<number, UserDto & { passwordHash: string; tokenVersion: number }>();
  readonly levels = new Set<number>([1]);

  add(id: number, role: Role, extra: Partial<UserDto> = {}, passwordHash = ''): UserDto {
    const user: UserDto = {
      id,
      firstname: `User${id}`,
      lastname: 'Test',
      email: `u${id}@example.test`,
      role,
      level: null,
      level_id: null,
      color: null,
      blast_fee: 100,
      blast_interval_min: 5,
      blast_interval_max: 10,
      referral_code: `CODE${id}`,
      referrer_id: null,
      account_name: null,
      account_bank: null,
      account_number: null,
      createdAt: new Date(0).toISOString(),
      income: 0,
      whatsapps: 0,
      ...extra,
    };
    this.rows.set(id, { ...user, passwordHash, tokenVersion: 0 });
    return user;
  }

  async findDto(id: number): Promise<UserDto | null> {
    const row = this.rows.get(id);
    if (!row) return null;
    const { passwordHash: _hash, tokenVersion: _version, ...user } = row;
    return user;
  }
  async referralCodeTaken(code: string) {
    return [...this.rows.values()].some((u) => u.referral_code === code);
  }
  async listMembers() {
    return [...this.rows.values()].filter((u) => u.role === 'member');
  }
  async membersPage(opts: { limit: number; offset: number }) {
    const all = await this.listMembers();
    return { total: all.length, data: all.slice(opts.offset, opts.offset + opts.limit) };
  }
  async activeMembers() {
    return 0;
  }
  async referralsPage(opts: { referrerId: number | null; limit: number; offset: number }) {
    const list = [...this.rows.values()]
      .filter((u) => (opts.referrerId === null ? u.referrer_id !== null : u.referrer_id === opts.referrerId))
      .map((u) => ({
        id: u.id,
        firstname: u.firstname,
        lastname: u.lastname,
        email: u.email,
        income: 0,
        createdAt: u.createdAt,
      }));
    return { total: list.length, list: list.slice(opts.offset, opts.offset + opts.limit) };
  }
  async passwordHash(id: number) {
    return this.rows.get(id)?.passwordHash ?? null;
  }
  async emailTaken(email: string, exceptId?: number) {
    return [...this.rows.values()].some((u) => u.email.toLowerCase() === email && u.id !== exceptId);
  }
  async levelExists(id: number) {
    return this.levels.has(id);
  }
  async update(id: number, patch: UserPatch, endTokens = false) {
    const row = this.rows.get(id);
    if (!row) return 0;
    if (patch.firstname !== undefined) row.firstname = patch.firstname;
    if (patch.email !== undefined) row.email = patch.email;
    if (patch.passwordHash !== undefined) row.passwordHash = patch.passwordHash;
    if (patch.role !== undefined) row.role = patch.role as Role;
    if (patch.levelId !== undefined) row.level_id = patch.levelId;
    if (patch.blastFee !== undefined && patch.blastFee !== null) row.blast_fee = patch.blastFee;
    if (endTokens) row.tokenVersion += 1;
    return row.tokenVersion;
  }
  /** the users' live API keys, as many as a test gives them */
  readonly keys = new Map<number, number>();
  async endSessions(id: number, patch: UserPatch = {}) {
    const tokenVersion = await this.update(id, patch, true);
    const keysRevoked = this.keys.get(id) ?? 0;
    this.keys.delete(id);
    return { tokenVersion, keysRevoked };
  }
}

let store: MemoryUsers;
let users: UsersService;
const MEMBER = 1;
const OTHER_MEMBER = 2;
const STAFF = 3;
const ADMIN = 4;
const OTHER_ADMIN = 5;
const DEV = 6;

beforeEach(() => {
  store = new MemoryUsers();
  store.add(MEMBER, 'member');
  store.add(OTHER_MEMBER, 'member', { referrer_id: MEMBER });
  store.add(STAFF, 'staff');
  store.add(ADMIN, 'admin');
  store.add(OTHER_ADMIN, 'admin');
  store.add(DEV, 'dev');
  users = new UsersService(store);
});

describe('reading users', () => {
  it('everybody reads their own profile; admin and dev anyone’s; a missing one is a 404', async () => {
    expect((await users.get(as(MEMBER, 'member'), MEMBER)).user.id).toBe(MEMBER);
    expect(await refused(users.get(as(MEMBER, 'member'), OTHER_MEMBER))).toEqual({
      status: 403,
      msg: 'You are not allowed to do this.',
    });
    expect((await refused(users.blastFee(as(STAFF, 'staff'), MEMBER))).status).toBe(403);
    expect((await users.blastFee(as(ADMIN, 'admin'), MEMBER)).blast_fee).toBe(100);
    expect((await refused(users.get(as(DEV, 'dev'), 99))).status).toBe(404);
  });

  it('the member list is for admin and dev only', async () => {
    expect((await users.members(as(ADMIN, 'admin'))).users.map((u) => u.id)).toEqual([MEMBER, OTHER_MEMBER]);
    expect((await users.membersPerPage(as(DEV, 'dev'), 1)).meta.total).toBe(2);
    for (const actor of [as(MEMBER, 'member'), as(STAFF, 'staff')]) {
      expect((await refused(users.members(actor))).status).toBe(403);
      expect((await refused(users.activeCount(actor))).status).toBe(403);
    }
  });

  it('referrals: a member their own whatever they ask; admin and dev anyone’s or all; staff none', async () => {
    expect((await users.referralsPerPage(as(MEMBER, 'member'), 1)).list.map((r) => r.id)).toEqual([OTHER_MEMBER]);
    expect((await refused(users.referralsPerPage(as(OTHER_MEMBER, 'member'), 1, MEMBER))).status).toBe(403);
    expect((await users.referralsPerPage(as(ADMIN, 'admin'), 1)).total).toBe(1);
    expect((await users.referralsPerPage(as(DEV, 'dev'), 1, OTHER_MEMBER)).total).toBe(0);
    expect((await refused(users.referralsPerPage(as(STAFF, 'staff'), 1))).status).toBe(403);
  });
});

describe('editing users', () => {
  const edit = (actor: Actor, id: number, input: UpdateUserInput) => users.update(actor, id, input);

  it('nobody edits another user’s profile but admin and dev', async () => {
    expect(await refused(edit(as(MEMBER, 'member'), OTHER_MEMBER, { firstname: 'X' }))).toEqual({
      status: 403,
      msg: 'You are not allowed to do this.',
    });
    expect((await refused(edit(as(STAFF, 'staff'), MEMBER, { firstname: 'X' }))).status).toBe(403);
    expect((await edit(as(ADMIN, 'admin'), MEMBER, { firstname: 'Dewi' })).user.firstname).toBe('Dewi');
  });

  it('role, level, fee and intervals: admin and dev on others, nobody on themselves', async () => {
    expect(await refused(edit(as(MEMBER, 'member'), MEMBER, { blast_fee: 1 }))).toEqual({
      status: 403,
      msg: 'You cannot change your own blast_fee.',
    });
    expect((await refused(edit(as(ADMIN, 'admin'), ADMIN, { role: 'member' }))).msg).toBe(
      'You cannot change your own role.',
    );
    const fee = await edit(as(ADMIN, 'admin'), MEMBER, { blast_fee: 250 });
    expect(fee.user.blast_fee).toBe(250);
    // the same value is no change, so a member may send back what the form showed
    expect((await edit(as(MEMBER, 'member'), MEMBER, { firstname: 'Ani', blast_fee: 250 })).user.firstname).toBe('Ani');
  });

  it('only a dev grants or removes the dev role', async () => {
    expect(await refused(edit(as(ADMIN, 'admin'), MEMBER, { role: 'dev' }))).toEqual({
      status: 403,
      msg: 'Only a dev may grant or remove the dev role.',
    });
    expect((await edit(as(DEV, 'dev'), MEMBER, { role: 'dev' })).user.role).toBe('dev');
    expect((await refused(edit(as(ADMIN, 'admin'), MEMBER, { role: 'member' }))).status).toBe(403);
    expect((await edit(as(ADMIN, 'admin'), STAFF, { role: 'admin' })).user.role).toBe('admin');
  });

  it('an admin does not change another admin’s or a dev’s password, e-mail or role; a dev does', async () => {
    expect(
      await refused(edit(as(ADMIN, 'admin'), OTHER_ADMIN, { password: 'a-new-secret', email: 'x@y.test' })),
    ).toEqual({ status: 403, msg: 'An admin may not change the password, email of another admin or a dev.' });
    expect((await refused(edit(as(ADMIN, 'admin'), DEV, { role: 'member' }))).status).toBe(403);
    expect((await edit(as(ADMIN, 'admin'), OTHER_ADMIN, { firstname: 'Renamed' })).user.firstname).toBe('Renamed');
    expect((await edit(as(DEV, 'dev'), OTHER_ADMIN, { password: 'reset-by-dev' })).msg).toBe('User updated');
  });

  it('one’s own password or e-mail needs the current password, and the answer carries a fresh token', async () => {
    const row = store.rows.get(MEMBER);
    if (row) row.passwordHash = await hashPassword('old-secret');
    const sign = (u: { id: number; tokenVersion: number }) => `token-${u.id}-${u.tokenVersion}`;
    const member = as(MEMBER, 'member');
    expect(await refused(users.update(member, MEMBER, { password: 'new-secret' }, sign))).toEqual({
      status: 400,
      msg: CURRENT_PASSWORD_REQUIRED,
    });
    expect(
      (await refused(users.update(member, MEMBER, { password: 'new-secret', current_password: 'nope' }, sign))).msg,
    ).toBe(CURRENT_PASSWORD_WRONG);
    const ok = await users.update(member, MEMBER, { password: 'new-secret', current_password: 'old-secret' }, sign);
    expect(ok.token).toBe(`token-${MEMBER}-1`);
    // a name change ends no token, so it brings none
    expect((await users.update(member, MEMBER, { firstname: 'Same' }, sign)).token).toBeUndefined();
  });

  it('counts password and e-mail changes per user: past the budget a 429', async () => {
    const admin = as(ADMIN, 'admin');
    for (let i = 0; i < CREDENTIAL_CHANGES_PER_USER; i++) {
      await edit(admin, MEMBER, { email: `m${i}@example.test` });
    }
    expect((await refused(edit(admin, MEMBER, { email: 'late@example.test' }))).status).toBe(429);
  });

  it('checks the interval order against the stored values, a taken e-mail and the level', async () => {
    expect(await refused(edit(as(ADMIN, 'admin'), MEMBER, { blast_interval_min: 11 }))).toEqual({
      status: 400,
      msg: 'Interval minimal harus lebih kecil dari interval maksimal',
    });
    expect(await refused(edit(as(ADMIN, 'admin'), MEMBER, { email: `u${OTHER_MEMBER}@example.test` }))).toEqual({
      status: 409,
      msg: 'Email is already registered.',
    });
    expect((await refused(edit(as(ADMIN, 'admin'), MEMBER, { level_id: 7 }))).msg).toBe('Level not found.');
    expect((await edit(as(ADMIN, 'admin'), MEMBER, { level_id: 1 })).user.level_id).toBe(1);
  });
});

describe('API keys (issue 24)', () => {
  const edit = (actor: Actor, id: number, input: UpdateUserInput) => users.update(actor, id, input);
  const byKey = (id: number, role: Role): Actor => ({ ...as(id, role), apiKey: { id: 9, readOnly: false } });

  it('a key changes no password or e-mail (its owner’s or, as an admin’s, anybody’s) and does not sign out everywhere', async () => {
    store.rows.get(MEMBER)!.passwordHash = await hashPassword('old-secret');
    const noCredentials = { status: 403, msg: API_KEY_TEXTS.noCredentials };
    expect(
      await refused(
        edit(byKey(MEMBER, 'member'), MEMBER, { password: 'x-new-secret', current_password: 'old-secret' }),
      ),
    ).toEqual(noCredentials);
    expect(
      await refused(
        edit(byKey(MEMBER, 'member'), MEMBER, { email: 'new@example.test', current_password: 'old-secret' }),
      ),
    ).toEqual(noCredentials);
    expect(await refused(edit(byKey(ADMIN, 'admin'), MEMBER, { password: 'x-new-secret' }))).toEqual(noCredentials);
    expect((await refused(users.logoutEverywhere(byKey(MEMBER, 'member')))).status).toBe(403);
    expect(store.rows.get(MEMBER)?.tokenVersion).toBe(0);
    // what else a key may edit, it still may
    expect((await edit(byKey(MEMBER, 'member'), MEMBER, { firstname: 'Skrip' })).user.firstname).toBe('Skrip');
  });

  it('a password change and "sign out everywhere" revoke the user’s keys and say how many; other edits do not', async () => {
    store.keys.set(MEMBER, 3);
    const renamed = await edit(as(ADMIN, 'admin'), MEMBER, { firstname: 'Ani' });
    expect(renamed).not.toHaveProperty('api_keys_revoked');
    const reset = await edit(as(ADMIN, 'admin'), MEMBER, { password: 'reset-by-admin' });
    expect(reset.api_keys_revoked).toBe(3);
    expect(reset.msg).toBe(`User updated. ${API_KEY_TEXTS.revoked(3)}`);
    expect((await edit(as(ADMIN, 'admin'), MEMBER, { password: 'again-by-admin' })).api_keys_revoked).toBe(0);
    store.keys.set(MEMBER, 1);
    expect(await users.logoutEverywhere(as(MEMBER, 'member'))).toEqual({
      msg: `Signed out on every device. ${API_KEY_TEXTS.revoked(1)}`,
      api_keys_revoked: 1,
    });
    expect(await users.logoutEverywhere(as(MEMBER, 'member'))).toEqual({
      msg: 'Signed out on every device.',
      api_keys_revoked: 0,
    });
  });
});

describe('ending tokens', () => {
  it('announces each token-version bump on the bus (the hubs close older sockets), and nothing else', async () => {
    const bus = new InProcessBus();
    const heard: unknown[] = [];
    await bus.subscribe(TOKEN_VERSION_CHANNEL, (m) => heard.push(m));
    const withBus = new UsersService(store, bus);
    store.rows.get(MEMBER)!.passwordHash = await hashPassword('old-password');

    await withBus.update(as(ADMIN, 'admin'), MEMBER, { firstname: 'Nothing ends' });
    expect(heard).toEqual([]);
    await withBus.logoutEverywhere(as(MEMBER, 'member'));
    expect(heard).toEqual([{ userId: MEMBER, tokenVersion: 1 }]);
    await withBus.update(as(DEV, 'dev'), OTHER_ADMIN, { role: 'member' });
    expect(heard.at(-1)).toEqual({ userId: OTHER_ADMIN, tokenVersion: 1 });
    let signed = -1;
    await withBus.update(
      as(MEMBER, 'member'),
      MEMBER,
      { password: 'new-password', current_password: 'old-password' },
      (u) => {
        signed = u.tokenVersion;
        return 'fresh';
      },
    );
    // the fresh token carries the announced version, so the socket opened with it stays open
    expect(heard.at(-1)).toEqual({ userId: MEMBER, tokenVersion: 2 });
    expect(signed).toBe(2);
    expect(heard).toHaveLength(3);
    await bus.close();
  });
});
