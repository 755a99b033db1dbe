import { z } from 'zod';
import { pagedOf, requiredNumber, requiredText } from './common';

/** A member level (§3 Level). */
export interface LevelDto {
  id: number;
  name: string;
  blast_fee: number;
  requirement_blast: number;
}

/** POST /admin/level/create and PUT /admin/level/{id} (§5 Level: all required, fee and requirement numeric). */
export const levelBody = z.object({
  name: requiredText('Name is required.', 100),
  blast_fee: requiredNumber('Blast fee', 0, 1_000_000_000),
  requirement_blast: requiredNumber('Requirement blast', 0, 1_000_000_000),
});

/** The schema of LevelDto. */
export const levelDto = z.object({
  id: z.number().int(),
  name: z.string(),
  blast_fee: z.number().int(),
  requirement_blast: z.number().int(),
});

/** GET /admin/level/list-per-page */
export const levelPage = pagedOf(levelDto);

/** GET /admin/level/{id} */
export const levelResponse = z.object({ level: levelDto });

/** POST /admin/level/create (201) and PUT /admin/level/{id} */
export const savedLevel = z.object({ level: levelDto, msg: z.string() });
