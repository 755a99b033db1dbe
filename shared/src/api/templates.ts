import { deletedResponse, exportQuery, idParam, pageQuery } from '../contract/common';
import {
  savedTemplate,
  templateExport,
  templateFields,
  templateImportResult,
  templateList,
  templatePage,
  templateResponse,
  templateUpdateFields,
  updatedTemplate,
} from '../contract/templates';
import { routes } from './define';

/**
 * §7 Templates: admin and dev. Create and update take multipart/form-data: the form's text fields
 * (`body`) and an optional medium (`file`).
 */
export const TEMPLATES = routes('templates', '/admin/message', {
  list: {
    method: 'get',
    path: '/list',
    summary: 'Every message template',
    access: 'catalogue.manage',
    response: templateList,
  },
  page: {
    method: 'get',
    path: '/list-per-page',
    summary: 'A page of templates',
    access: 'catalogue.manage',
    query: pageQuery,
    response: templatePage,
  },
  export: {
    method: 'get',
    path: '/export',
    summary: 'Export the templates (messages.json download; messages.csv with format=csv)',
    access: 'catalogue.manage',
    query: exportQuery('json'),
    response: templateExport,
  },
  create: {
    method: 'post',
    path: '/create',
    summary: 'Create a template',
    access: 'catalogue.manage',
    body: templateFields,
    file: { name: 'file', required: false, description: 'the media' },
    status: 201,
    response: savedTemplate,
  },
  import: {
    method: 'post',
    path: '/import',
    summary: 'Import templates (JSON)',
    access: 'catalogue.manage',
    file: { name: 'file', required: true, description: 'a messages.json export' },
    response: templateImportResult,
  },
  get: {
    method: 'get',
    path: '/{id}',
    summary: 'One template',
    access: 'catalogue.manage',
    params: { id: idParam },
    response: templateResponse,
  },
  update: {
    method: 'put',
    path: '/{id}',
    summary: 'Update a template',
    access: 'catalogue.manage',
    params: { id: idParam },
    body: templateUpdateFields,
    file: { name: 'file', required: false, description: 'new media' },
    response: updatedTemplate,
  },
  remove: {
    method: 'delete',
    path: '/{id}',
    summary: 'Delete a template',
    access: 'catalogue.manage',
    params: { id: idParam },
    response: deletedResponse,
  },
});
