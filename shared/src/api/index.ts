import { API_KEYS } from './apikeys';
import { AUTH } from './auth';
import { BONUS } from './bonus';
import { CAMPAIGNS } from './campaigns';
import { DASHBOARD } from './dashboard';
import type { ApiRoute } from './define';
import { DOCS } from './docs';
import { FIRST_RUN } from './first-run';
import { HEALTH } from './health';
import { LEVELS } from './levels';
import { MESSAGE_LOG } from './messagelog';
import { MONITOR } from './monitor';
import { PHONE_NUMBERS } from './phone-numbers';
import { PROXIES } from './proxies';
import { REPORT } from './report';
import { PUBLIC_SETTINGS, SETTINGS } from './settings';
import { SIM } from './sim';
import { TEMPLATES } from './templates';
import { GENERATOR, VALIDATOR } from './tools';
import { USERS } from './users';
import { WEBHOOKS } from './webhooks';
import { WHATSAPP } from './whatsapp';
import { WITHDRAW } from './withdraw';

export * from './apikeys';
export * from './auth';
export * from './bonus';
export * from './campaigns';
export * from './dashboard';
export * from './define';
export * from './docs';
export * from './first-run';
export * from './health';
export * from './levels';
export * from './messagelog';
export * from './monitor';
export * from './phone-numbers';
export * from './proxies';
export * from './report';
export * from './settings';
export * from './sim';
export * from './templates';
export * from './tools';
export * from './users';
export * from './webhooks';
export * from './whatsapp';
export * from './withdraw';

/**
 * Every declared /api route: the router binds each (server/src/http/route.ts), and the OpenAPI
 * document is built from this list.
 */
export const API_ROUTES: readonly ApiRoute[] = [
  HEALTH,
  DOCS,
  AUTH,
  API_KEYS,
  USERS,
  FIRST_RUN,
  WEBHOOKS,
  PHONE_NUMBERS,
  PROXIES,
  LEVELS,
  TEMPLATES,
  MESSAGE_LOG,
  DASHBOARD,
  REPORT,
  WITHDRAW,
  BONUS,
  CAMPAIGNS,
  WHATSAPP,
  MONITOR,
  GENERATOR,
  VALIDATOR,
  SIM,
  SETTINGS,
  PUBLIC_SETTINGS,
].flatMap((group) => Object.values(group));
