import type { z } from 'zod';
import { actionErrorDto, deletedResponse, idParam } from '../contract/common';
import {
  generatorBody,
  generatorPage,
  generatorResponse,
  generatorRun,
  savedGenerator,
  savedValidator,
  toolIdBody,
  toolListQuery,
  toolResult,
  validatorFields,
  validatorPage,
  validatorResponse,
  validatorRun,
} from '../contract/tools';
import { type RouteEntry, routes } from './define';

/**
 * §7 Generator and validator: /api/admin/generator/… and /api/admin/validator/… (admin, staff and
 * dev; §6). The two share every route but create and update (`own`): JSON for the generator,
 * multipart for the validator (with the file on create only), and the validator's file/{id}.
 * `answers`: what the tool answers for a page, for one, and for one started or stopped.
 */
function tools<
  P extends z.ZodType,
  O extends z.ZodType,
  R extends z.ZodType,
  const E extends Record<string, RouteEntry>,
>(kind: 'generator' | 'validator', answers: { page: P; one: O; run: R }, own: E) {
  return routes(kind, `/admin/${kind}`, {
    list: {
      method: 'get',
      path: '/list-per-page',
      summary: `A page of ${kind}s`,
      access: 'tool.manage',
      query: toolListQuery,
      response: answers.page,
    },
    downloadResult: {
      method: 'get',
      path: '/download-result/{id}',
      summary: `The ${kind}'s result`,
      access: 'tool.manage',
      params: { id: idParam },
      response: toolResult,
    },
    start: {
      method: 'post',
      path: '/start',
      summary: `Start a ${kind}`,
      access: 'tool.manage',
      body: toolIdBody,
      response: answers.run,
      failure: actionErrorDto,
    },
    stop: {
      method: 'post',
      path: '/stop',
      summary: `Stop a ${kind}`,
      access: 'tool.manage',
      body: toolIdBody,
      response: answers.run,
      failure: actionErrorDto,
    },
    ...own,
    get: {
      method: 'get',
      path: '/{id}',
      summary: `One ${kind}`,
      access: 'tool.manage',
      params: { id: idParam },
      response: answers.one,
    },
    remove: {
      method: 'delete',
      path: '/{id}',
      summary: `Delete a ${kind}`,
      access: 'tool.manage',
      params: { id: idParam },
      response: deletedResponse,
    },
  });
}

/** The validator's upload: the contact list. */
const upload = { name: 'file', required: true, description: 'the contact list (csv or json)' };

export const GENERATOR = tools(
  'generator',
  { page: generatorPage, one: generatorResponse, run: generatorRun },
  {
    create: {
      method: 'post',
      path: '/create',
      summary: 'Create a generator',
      access: 'tool.manage',
      body: generatorBody,
      response: savedGenerator,
    },
    update: {
      method: 'put',
      path: '/{id}',
      summary: 'Update a generator',
      access: 'tool.manage',
      params: { id: idParam },
      body: generatorBody,
      response: savedGenerator,
    },
  },
);

export const VALIDATOR = tools(
  'validator',
  { page: validatorPage, one: validatorResponse, run: validatorRun },
  {
    create: {
      method: 'post',
      path: '/create',
      summary: 'Create a validator',
      access: 'tool.manage',
      body: validatorFields,
      file: upload,
      response: savedValidator,
    },
    update: {
      method: 'put',
      path: '/{id}',
      summary: 'Update a validator (a file sent along is dropped)',
      access: 'tool.manage',
      params: { id: idParam },
      body: validatorFields,
      file: { ...upload, required: false },
      response: savedValidator,
    },
    file: {
      method: 'get',
      path: '/file/{id}',
      summary: "Download the validator's uploaded contact list",
      access: 'tool.manage',
      params: { id: idParam },
      produces: 'application/octet-stream',
    },
  },
);

/** Each tool's routes by its kind (the loop in server/src/app.ts mounts both). */
export const TOOLS = { generator: GENERATOR, validator: VALIDATOR };
