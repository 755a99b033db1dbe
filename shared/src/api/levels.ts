import { deletedResponse, idParam, pageQuery } from '../contract/common';
import { levelBody, levelPage, levelResponse, savedLevel } from '../contract/levels';
import { routes } from './define';

/** §7 Level: admin and dev. */
export const LEVELS = routes('levels', '/admin/level', {
  page: {
    method: 'get',
    path: '/list-per-page',
    summary: 'A page of levels',
    access: 'catalogue.manage',
    query: pageQuery,
    response: levelPage,
  },
  create: {
    method: 'post',
    path: '/create',
    summary: 'Create a level',
    access: 'catalogue.manage',
    body: levelBody,
    status: 201,
    response: savedLevel,
  },
  get: {
    method: 'get',
    path: '/{id}',
    summary: 'One level',
    access: 'catalogue.manage',
    params: { id: idParam },
    response: levelResponse,
  },
  update: {
    method: 'put',
    path: '/{id}',
    summary: 'Update a level',
    access: 'catalogue.manage',
    params: { id: idParam },
    body: levelBody,
    response: savedLevel,
  },
  remove: {
    method: 'delete',
    path: '/{id}',
    summary: 'Delete a level',
    access: 'catalogue.manage',
    params: { id: idParam },
    response: deletedResponse,
  },
});
