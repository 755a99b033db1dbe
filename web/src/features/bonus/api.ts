import type { BonusDto, CreateBonusBody, Paged, TotalBonusResponse, UserDto } from '@wa/shared';
import { call } from '../../api/client';

export type MemberOption = Pick<UserDto, 'id' | 'firstname' | 'lastname' | 'email'>;

/** §7 bonus calls: a member's own list (whatever the query says), admin and dev every bonus. */
export const bonusApi = {
  page: (page: number) =>
    call<Paged<BonusDto>>(`/admin/bonus/list-per-page?page=${page}`, { fallback: 'Error fetching Bonus list' }),
  total: async (userId: number) =>
    (await call<TotalBonusResponse>(`/admin/bonus/total/${userId}`, { fallback: 'Error fetching Bonus total' }))
      .totalBonus,
  create: (body: CreateBonusBody) =>
    call<{ bonus: BonusDto; msg: string }>('/admin/bonus/create', {
      method: 'POST',
      body,
      fallback: 'Error sending Bonus',
    }),
  remove: (id: number) =>
    call<{ id: number; msg: string }>(`/admin/bonus/${id}`, { method: 'DELETE', fallback: 'Error deleting Bonus' }),
  members: async () =>
    (await call<{ users: MemberOption[] }>('/admin/users/members', { fallback: 'Error fetching user' })).users,
};
