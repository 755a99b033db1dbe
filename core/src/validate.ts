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
