import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, badRequest } from '@wa/core/errors';
import { AttemptLimiter } from '@wa/core/rate-limit';
import { type AuthResponse, type loginBody, type registerBody, TERMS_MSG, type ValidateResponse } from '@wa/shared';
import type { z } from 'zod';
import { actorFromToken, signToken } from '../../auth/tokens';
import { hashPassword, verifyPassword } from '../users/passwords';
import type { UsersRepo } from '../users/users.repo';
import type { UsersService } from '../users/users.service';

/** Login failures allowed per address+account in 15 minutes before that pair is locked; sign-ups per address an hour. */
export const LOGIN_FAILS_PER_EMAIL = 10;
/**
 * Failures from one address (any e-mail) after which its sign-ins are slowed down, never locked:
 * locking per address let someone behind the same address (or a guesser) lock the admin out.
 */
export const LOGIN_FAILS_PER_IP = 50;
/** the slow-down per failure past LOGIN_FAILS_PER_IP, and its ceiling */
export const LOGIN_SLOWDOWN_STEP_MS = 100;
export const LOGIN_SLOWDOWN_MAX_MS = 3000;
export const REGISTRATIONS_PER_IP = 30;

export type RegisterInput = z.output<typeof registerBody>;
export type LoginInput = z.output<typeof loginBody>;

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}

/** Sign-up, sign-in and token validation (§4 Auth, §5, §7 Auth). */
export class AuthService {
  private readonly loginFails = new AttemptLimiter(LOGIN_FAILS_PER_EMAIL, 15 * 60_000);
  private readonly loginFailsByIp = new AttemptLimiter(LOGIN_FAILS_PER_IP, 15 * 60_000);
  private readonly registrations = new AttemptLimiter(REGISTRATIONS_PER_IP, 60 * 60_000);

  constructor(
    private readonly repo: UsersRepo,
    private readonly users: UsersService,
    private readonly jwtSecret: string,
  ) {}

  /** Refuses an address that has signed up too often (429); the route asks before it reads the form. */
  assertCanSignUp(ip: string): void {
    const wait = this.registrations.retryAfter(ip);
    if (wait) throw new AppError(429, `Too many sign-ups from this address. Please try again in ${wait} seconds.`);
  }

  async register(input: RegisterInput, ip: string): Promise<AuthResponse> {
    this.assertCanSignUp(ip);
    if (!input.agreeToTerms) throw badRequest(TERMS_MSG, { agreeToTerms: TERMS_MSG });
    const email = input.email.toLowerCase();
    if (await this.repo.emailTaken(email)) {
      throw new AppError(409, 'Email is already registered.', { email: 'Email is already registered.' });
    }
    const code = input.referral_code ?? input.affiliateCode;
    let referrerId: number | null = null;
    if (code) {
      referrerId = await this.repo.idByReferralCode(code);
      if (referrerId === null)
        throw badRequest('Referral code not found.', { referral_code: 'Referral code not found.' });
    }
    // checked and counted in one step: a burst of sign-ups all past the first check gets no more through
    const wait = this.registrations.take(ip);
    if (wait) throw new AppError(429, `Too many sign-ups from this address. Please try again in ${wait} seconds.`);
    let id: number;
    try {
      id = await this.repo.insert({
        firstname: input.firstName,
        lastname: input.lastName,
        email,
        passwordHash: await hashPassword(input.password),
        role: 'member',
        referralCode: await this.users.newReferralCode(),
        referrerId,
      });
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw new AppError(409, 'Email is already registered.', { email: 'Email is already registered.' });
      }
      throw err;
    }
    const user = await this.repo.findDto(id);
    if (!user) throw new Error('registered user vanished');
    return { token: signToken(this.jwtSecret, user), user, msg: 'Registration successful' };
  }

  /**
   * Every attempt is counted as a failure before its password is checked, and taken back when the
   * password is right: checking the limit first and counting after the (slow) check let a burst of
   * 40 wrong passwords at once get 20 checked against a limit of 10.
   */
  async login(input: LoginInput, ip: string): Promise<AuthResponse> {
    const email = input.email.toLowerCase();
    const key = `${ip}|${email}`;
    const wait = this.loginFails.take(key);
    if (wait) throw new AppError(429, `Too many failed sign-in attempts. Please try again in ${wait} seconds.`);
    // this attempt included: the first one past LOGIN_FAILS_PER_IP earlier failures waits a step
    const excess = this.loginFailsByIp.hit(ip) - 1 - LOGIN_FAILS_PER_IP;
    if (excess >= 0) await sleep(Math.min(LOGIN_SLOWDOWN_MAX_MS, (excess + 1) * LOGIN_SLOWDOWN_STEP_MS));
    const found = await this.userWithPassword(email, input.password).catch((err: unknown) => {
      // the database failing is no wrong password
      this.loginFails.release(key);
      this.loginFailsByIp.release(ip);
      throw err;
    });
    if (!found) throw new AppError(401, 'Invalid email or password');
    this.loginFails.reset(key);
    this.loginFailsByIp.release(ip);
    const user = await this.repo.findDto(found.id);
    if (!user) throw new AppError(401, 'Invalid email or password');
    return {
      token: signToken(this.jwtSecret, { id: user.id, role: user.role, tokenVersion: found.tokenVersion }),
      user,
      msg: 'Login successful',
    };
  }

  /** The user of `email` when `password` is theirs (an unknown e-mail takes as long to say no). */
  private async userWithPassword(email: string, password: string) {
    const found = await this.repo.findAuthByEmail(email);
    return (await verifyPassword(password, found?.passwordHash)) ? found : null;
  }

  /** Checks a token (header or body); a bad one is a 401 that the web turns into a silent logout. */
  async validate(token: string | null): Promise<{ status: number; body: ValidateResponse }> {
    if (!token) return { status: 401, body: { isvalid: false, msg: 'Missing auth token', err: 'Missing auth token' } };
    const actor = await actorFromToken(this.jwtSecret, token, (id) => this.repo.authState(id));
    const user = actor === null ? null : await this.repo.findDto(actor.id);
    if (!user) {
      return {
        status: 401,
        body: { isvalid: false, msg: 'Invalid or expired token', err: 'Invalid or expired token' },
      };
    }
    return { status: 200, body: { isvalid: true, msg: 'Token is valid', user } };
  }
}
