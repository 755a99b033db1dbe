import { bonusListQuery, bonusPage, createBonusBody, savedBonus } from '../contract/bonus';
import { actionErrorDto, deletedResponse, idParam } from '../contract/common';
import { counterUserParam, totalBonusResponse } from '../contract/counters';
import { routes } from './define';

/** §7 Bonus: /admin/bonus/… (admin and dev give and take back; members read their own). */
export const BONUS = routes('bonus', '/admin/bonus', {
  total: {
    method: 'get',
    path: '/total/{userId}',
    summary: 'Bonus total',
    access: 'counters.read',
    params: { userId: counterUserParam },
    response: totalBonusResponse,
  },
  page: {
    method: 'get',
    path: '/list-per-page',
    summary: 'A page of bonuses',
    access: 'bonus.read',
    query: bonusListQuery,
    response: bonusPage,
  },
  create: {
    method: 'post',
    path: '/create',
    summary: 'Give a bonus',
    access: 'bonus.give',
    body: createBonusBody,
    status: 201,
    response: savedBonus,
    failure: actionErrorDto,
  },
  remove: {
    method: 'delete',
    path: '/{id}',
    summary: 'Take a bonus back',
    access: 'bonus.give',
    params: { id: idParam },
    response: deletedResponse,
  },
});
