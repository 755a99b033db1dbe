import type { ToolStatus } from '@wa/shared';
import { sql } from 'drizzle-orm';

export type ToolKind = 'generator' | 'validator';

/** The table names and running status of each tool; identifiers are constants, never input. */
export const TOOL_TABLES = {
  generator: { table: sql.raw('generators'), results: sql.raw('generator_results'), fk: sql.raw('generator_id') },
  validator: { table: sql.raw('validators'), results: sql.raw('validator_results'), fk: sql.raw('validator_id') },
} as const;
export const RUNNING: Record<ToolKind, ToolStatus> = { generator: 'generating', validator: 'validating' };
