import { BONUS, type BodyIn, USERS, type UserDto } from '@wa/shared';
import { request } from '../../api/client';

export type MemberOption = Pick<UserDto, 'id' | 'firstname' | 'lastname' | 'email'>;

/** §7 bonus calls: a member's own list (whatever the query says), admin and dev every bonus. */
export const bonusApi = {
  page: (page: number) => request(BONUS.page, { query: { page }, fallback: 'Error fetching Bonus list' }),
  total: async (userId: number) =>
    (await request(BONUS.total, { params: { userId: String(userId) }, fallback: 'Error fetching Bonus total' }))
      .totalBonus,
  create: (body: BodyIn<typeof BONUS.create>) => request(BONUS.create, { body, fallback: 'Error sending Bonus' }),
  remove: (id: number) => request(BONUS.remove, { params: { id }, fallback: 'Error deleting Bonus' }),
  members: async () => (await request(USERS.members, { fallback: 'Error fetching user' })).users,
};
