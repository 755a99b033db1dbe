import { idParam } from '../contract/common';
import { balanceResponse, counterUserParam, incomeResponse } from '../contract/counters';
import {
  savedWithdraw,
  withdrawList,
  withdrawListQuery,
  withdrawPage,
  withdrawRequestBody,
  withdrawTotalResponse,
  withdrawUpdateBody,
} from '../contract/withdraw';
import { routes } from './define';

const userId = { userId: counterUserParam };

/**
 * §7 Withdraw: /admin/withdraw/…. Members and devs request for themselves; admin, dev and staff
 * see every request; only an admin accepts, rejects or cancels (§2, §6).
 */
export const WITHDRAW = routes('withdraw', '/admin/withdraw', {
  balance: {
    method: 'get',
    path: '/balance/{userId}',
    summary: 'Balance',
    access: 'counters.read',
    params: userId,
    response: balanceResponse,
  },
  income: {
    method: 'get',
    path: '/income/{userId}',
    summary: 'Income',
    access: 'counters.read',
    params: userId,
    response: incomeResponse,
  },
  totalRequested: {
    method: 'get',
    path: '/total-requested/{userId}',
    summary: 'Total requested',
    access: 'counters.read',
    params: userId,
    response: withdrawTotalResponse,
  },
  totalAccepted: {
    method: 'get',
    path: '/total-accepted/{userId}',
    summary: 'Total accepted',
    access: 'counters.read',
    params: userId,
    response: withdrawTotalResponse,
  },
  request: {
    method: 'post',
    path: '/request',
    summary: 'Request a withdrawal (for oneself)',
    access: 'withdraw.request',
    body: withdrawRequestBody,
    status: 201,
    response: savedWithdraw,
  },
  history: {
    method: 'get',
    path: '/history/{userId}',
    summary: "A user's withdrawals",
    access: 'withdraw.read',
    params: { userId: idParam },
    response: withdrawList,
  },
  histories: {
    method: 'get',
    path: '/histories',
    summary: 'Every withdrawal request',
    access: 'withdraw.handle',
    response: withdrawList,
  },
  page: {
    method: 'get',
    path: '/histories-per-page',
    summary: 'A page of withdrawals',
    access: 'withdraw.read',
    query: withdrawListQuery,
    response: withdrawPage,
  },
  update: {
    method: 'put',
    path: '/update',
    summary: 'Accept, reject or cancel a withdrawal',
    access: 'withdraw.decide',
    body: withdrawUpdateBody,
    response: savedWithdraw,
  },
});
