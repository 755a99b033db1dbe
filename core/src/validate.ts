import { fieldErrors } from '@wa/shared';
import type { z } from 'zod';
import { badRequest } from './errors';

/** Parses `value` with a shared schema, or throws a 400 with the first message and every field's. */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = fieldErrors(result.error);
  const first = result.error.issues[0]?.message ?? 'Invalid input';
  throw badRequest(first, errors);
}

export const NO_DATA = 'No Data';

/**
 * Refuses a body that is not an object with at least one field ('No Data', §8), before any of its
 * fields is checked: an edit form sent empty says so rather than naming a field.
 */
export function requireData(value: unknown): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || Object.keys(value).length === 0) {
    throw badRequest(NO_DATA);
  }
}
