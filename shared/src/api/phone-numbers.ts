import { exportQuery, idParam } from '../contract/common';
import { phoneBlastCount } from '../contract/counters';
import {
  deletedPhoneNumber,
  phoneImportResult,
  phoneListQuery,
  phoneNumberList,
  phoneNumberPage,
  phoneNumberResponse,
  savedPhoneNumber,
  savePhoneNumberBody,
  skippedListId,
  updatePhoneNumberBody,
} from '../contract/phone-numbers';
import { receiversQuery, receiversResponse } from '../contract/whatsapp';
import { routes } from './define';

/** §7 Phone numbers: admin and dev; the blaster form's receivers also members. */
export const PHONE_NUMBERS = routes('phone-numbers', '/admin/phonenumber', {
  receivers: {
    method: 'get',
    path: '/receivers',
    summary: "The blaster form's receiver choices",
    access: 'receivers.read',
    query: receiversQuery,
    response: receiversResponse,
  },
  list: {
    method: 'get',
    path: '/list',
    summary: 'Every phone number (streamed)',
    access: 'catalogue.manage',
    response: phoneNumberList,
  },
  page: {
    method: 'get',
    path: '/list-per-page',
    summary: 'A page of phone numbers',
    access: 'catalogue.manage',
    query: phoneListQuery,
    response: phoneNumberPage,
  },
  countBlast: {
    method: 'get',
    path: '/count-blast',
    summary: 'How many numbers may be blasted',
    access: 'catalogue.manage',
    response: phoneBlastCount,
  },
  export: {
    method: 'get',
    path: '/export',
    summary: 'Export every phone number (CSV or JSON download)',
    access: 'catalogue.manage',
    query: exportQuery('csv'),
    produces: 'text/csv',
  },
  save: {
    method: 'post',
    path: '/save',
    summary: 'Add a phone number',
    access: 'catalogue.manage',
    body: savePhoneNumberBody,
    status: 201,
    response: savedPhoneNumber,
  },
  import: {
    method: 'post',
    path: '/import',
    summary: 'Import phone numbers (CSV or JSON); the first 1,000 skipped rows with their line and reason',
    access: 'catalogue.manage',
    file: { name: 'file', required: true, description: 'the file to import' },
    response: phoneImportResult,
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
    summary: 'One phone number',
    access: 'catalogue.manage',
    params: { id: idParam },
    response: phoneNumberResponse,
  },
  update: {
    method: 'put',
    path: '/{id}',
    summary: 'Update a phone number',
    access: 'catalogue.manage',
    params: { id: idParam },
    body: updatePhoneNumberBody,
    response: savedPhoneNumber,
  },
  remove: {
    method: 'delete',
    path: '/{id}',
    summary: 'Delete a phone number',
    access: 'catalogue.manage',
    params: { id: idParam },
    response: deletedPhoneNumber,
  },
});
