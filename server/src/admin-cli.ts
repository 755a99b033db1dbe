/**
 * The command line of `npm run admin` (app/src/admin.ts): what it takes and its usage. It imports
 * nothing, so a usage error or `help` answers before the database code is loaded.
 */

/** How an operator runs the admin commands: on the host, and in the compose stack. */
export const ADMIN_COMMAND = 'npm run admin --';
export const ADMIN_COMMAND_DOCKER = `docker compose exec api ${ADMIN_COMMAND}`;

/** The commands, as `npm run admin -- <command> <email>` takes them. */
export const ADMIN_COMMANDS = ['reset-password', 'create-dev'] as const;
export type AdminCommandName = (typeof ADMIN_COMMANDS)[number];

export interface AdminCommand {
  name: AdminCommandName;
  email: string;
}

/** The usage text: the commands, the configuration they read, and the embedded database's rule. */
export const ADMIN_USAGE = [
  `usage: ${ADMIN_COMMAND} reset-password <email> | create-dev <email>`,
  '  reset-password <email>  a new generated password for the user, printed once; ends every',
  '                          session and revokes every API key of the user',
  '  create-dev <email>      a new user with the dev role and a generated password, printed once',
  'It reads the server configuration: DATABASE_URL (PostgreSQL), else the embedded database in',
  'DATA_DIR (./data). With the embedded database, stop the server first. In docker compose:',
  `  ${ADMIN_COMMAND_DOCKER} reset-password <email>`,
].join('\n');

/** A command line the commands do not take: the caller prints it with the usage and exits 2. */
export class UsageError extends Error {}

/** The command line after `npm run admin --`, or 'help' for -h/--help/help. Throws UsageError. */
export function parseAdminArgs(argv: readonly string[]): AdminCommand | 'help' {
  const [name, email, ...rest] = argv;
  if (name === undefined) throw new UsageError('no command given');
  if (name === 'help' || name === '-h' || name === '--help') return 'help';
  if (!(ADMIN_COMMANDS as readonly string[]).includes(name)) throw new UsageError(`unknown command "${name}"`);
  if (email === undefined || email.trim() === '') throw new UsageError(`${name} needs the user's e-mail`);
  if (rest.length) throw new UsageError(`${name} takes one e-mail, got also "${rest.join(' ')}"`);
  return { name: name as AdminCommandName, email: email.trim() };
}
