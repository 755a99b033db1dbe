import bcrypt from 'bcrypt';

/** bcrypt cost: about 50–70 ms a hash on the machines we run on. */
export const BCRYPT_ROUNDS = 10;

/**
 * Hashes a password. The native bcrypt binding hashes on libuv's thread pool, so a burst of
 * sign-ups or password changes does not stall the event loop (bcryptjs ran on it: 50 concurrent
 * changes held /api/health for 4.9 s).
 */
export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_ROUNDS);
}

// compared against when there is no hash (an unknown e-mail), so both answers take as long
const DUMMY_HASH = bcrypt.hashSync('not-a-real-password', BCRYPT_ROUNDS);

/** Whether `password` matches `hash` (any $2a/$2b hash, also those bcryptjs wrote); off the event loop too. */
export function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  return bcrypt.compare(password, hash ?? DUMMY_HASH);
}
