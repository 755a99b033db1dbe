import { sql } from 'drizzle-orm';

/**
 * A member's fee per delivered message (README "Blasting"): their own, else their level's, else
 * the settings' price; null when none is set. The one place the rule is written: the members
 * list shows it and the blast pays it. Over `users u`, the user's `levels l` and `settings s`.
 */
export const EFFECTIVE_FEE = sql`coalesce(u.blast_fee, l.blast_fee, s.price)`;
