import { idParam, pageQuery } from '../contract/common';
import { usersActiveCount } from '../contract/counters';
import {
  blastFeeResponse,
  membersPage,
  membersQuery,
  membersResponse,
  referralPage,
  referralQuery,
  updatedUserResponse,
  updateUserBody,
  userResponse,
} from '../contract/users';
import { routes } from './define';

/** §7 Users: /api/admin/users/…. */
export const USERS = routes('users', '/admin/users', {
  members: {
    method: 'get',
    path: '/members',
    summary: 'Every member',
    access: 'users.list',
    response: membersResponse,
  },
  membersPerPage: {
    method: 'get',
    path: '/members-per-page',
    summary: 'A page of members',
    access: 'users.list',
    query: membersQuery,
    response: membersPage,
  },
  active: {
    method: 'get',
    path: '/active',
    summary: 'How many members are active',
    access: 'users.list',
    response: usersActiveCount,
  },
  referralPerPage: {
    method: 'get',
    path: '/referral-per-page',
    summary: 'A page of referrals',
    access: 'referral.read',
    query: [pageQuery, referralQuery],
    response: referralPage,
  },
  blastFee: {
    method: 'get',
    path: '/blast-fee/{id}',
    summary: "A user's blast fee",
    access: 'user.read',
    params: { id: idParam },
    response: blastFeeResponse,
  },
  get: {
    method: 'get',
    path: '/{id}',
    summary: 'One user',
    access: 'user.read',
    params: { id: idParam },
    response: userResponse,
  },
  update: {
    method: 'put',
    path: '/{id}',
    summary: 'Update a user',
    access: 'user.edit',
    params: { id: idParam },
    body: updateUserBody,
    response: updatedUserResponse,
  },
});
