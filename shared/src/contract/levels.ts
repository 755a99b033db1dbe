import { z } from 'zod';
import { requiredNumber, requiredText } from './common';

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
