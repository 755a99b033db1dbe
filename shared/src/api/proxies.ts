import { deletedResponse, exportQuery, idParam, pageQuery } from '../contract/common';
import { proxyUseCount } from '../contract/counters';
import { skippedListId } from '../contract/phone-numbers';
import {
  proxyImportResult,
  proxyList,
  proxyPage,
  proxyResponse,
  savedProxy,
  saveProxyBody,
  updateProxyBody,
} from '../contract/proxies';
import { routes } from './define';

/** §7 Proxy: admin and dev. */
export const PROXIES = routes('proxies', '/admin/proxy', {
  list: { method: 'get', path: '/list', summary: 'Every proxy', access: 'catalogue.manage', response: proxyList },
  page: {
    method: 'get',
    path: '/list-per-page',
    summary: 'A page of proxies',
    access: 'catalogue.manage',
    query: pageQuery,
    response: proxyPage,
  },
  countUse: {
    method: 'get',
    path: '/count-use',
    summary: 'How many proxies are in use',
    access: 'catalogue.manage',
    response: proxyUseCount,
  },
  export: {
    method: 'get',
    path: '/export',
    summary: 'Export every proxy (CSV or JSON download)',
    access: 'catalogue.manage',
    query: exportQuery('csv'),
    produces: 'text/csv',
  },
  save: {
    method: 'post',
    path: '/save',
    summary: 'Add a proxy',
    access: 'catalogue.manage',
    body: saveProxyBody,
    status: 201,
    response: savedProxy,
  },
  import: {
    method: 'post',
    path: '/import',
    summary: 'Import proxies (CSV or JSON); the first 1,000 skipped rows with their line and reason',
    access: 'catalogue.manage',
    file: { name: 'file', required: true, description: 'the file to import' },
    response: proxyImportResult,
  },
  skipped: {
    method: 'get',
    path: '/import/skipped/{id}',
    summary: "The full skipped list of the caller's import (CSV download, kept an hour)",
    access: 'catalogue.manage',
    params: { id: skippedListId },
    produces: 'text/csv',
  },
  get: {
    method: 'get',
    path: '/{id}',
    summary: 'One proxy',
    access: 'catalogue.manage',
    params: { id: idParam },
    response: proxyResponse,
  },
  update: {
    method: 'put',
    path: '/{id}',
    summary: 'Update a proxy',
    access: 'catalogue.manage',
    params: { id: idParam },
    body: updateProxyBody,
    response: savedProxy,
  },
  remove: {
    method: 'delete',
    path: '/{id}',
    summary: 'Delete a proxy',
    access: 'catalogue.manage',
    params: { id: idParam },
    response: deletedResponse,
  },
});
