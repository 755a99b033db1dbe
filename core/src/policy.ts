import { type Ability, OPERATING_ROLES, ROLES, type Role } from '@wa/shared';
import type { Actor } from './actor';
import { forbidden } from './errors';

/**
 * Who may do what (spec §6 and the §2 route table), asked by the routes (`allow` in server/http)
 * and by the services (`can`, `assertCan`). A rule names the roles that may act on anyone's rows
 * (`any`) and those that may act on their own only (`own`); a route asks without a resource, a
 * service asks again with the row's owner once it has it.
 */
interface Rule {
  /** roles that may do it to anyone's */
  any: readonly Role[];
  /** roles that may do it to their own only */
  own?: readonly Role[];
  /** for an `any` role, the target roles it still may not act on unless it is itself */
  notOver?: Partial<Record<Role, readonly Role[]>>;
  /** the refusal when the role may not do it at all (the generic 403 text otherwise) */
  refusal?: string;
  /** the refusal when the role may, but only on its own, and the resource is somebody else's */
  notYours?: string;
}

const ADMIN_DEV = ['admin', 'dev'] as const;

/**
 * The one table: a rule for each name of ABILITIES (shared/src/abilities.ts) and for nothing else.
 * Adding an ability there and here is the only way a route or service can ask for it.
 */
export const POLICY = {
  // users (§2 Members, §6 "Only admin and dev load the member list")
  'users.list': { any: ADMIN_DEV },
  'user.read': { any: ADMIN_DEV, own: ROLES },
  'user.edit': { any: ADMIN_DEV, own: ROLES },
  /** role, level, fee and intervals; the service adds that nobody changes them on themselves */
  'user.manage': { any: ADMIN_DEV },
  /** granting or removing the dev role: the dev role is the operator's */
  'user.grant-dev': { any: ['dev'], refusal: 'Only a dev may grant or remove the dev role.' },
  /** password, e-mail and role: an admin does not change another admin's or a dev's */
  'user.credentials': { any: ADMIN_DEV, own: ROLES, notOver: { admin: ADMIN_DEV } },
  'referral.read': { any: ADMIN_DEV, own: ['member'] },

  // money (§2 Dashboard, Bonus, Withdraw)
  /** the dashboard counters; staff's dashboard is the withdrawal list, so staff reads none */
  'counters.read': { any: ADMIN_DEV, own: ['member'] },
  /** the first-run checklist (issue 20): the installation's figures, for whoever sets it up */
  'first-run.read': { any: ADMIN_DEV },
  /** the report and the message log (issue 11): staff read everybody's, a member their own */
  'report.read': { any: ['admin', 'dev', 'staff'], own: ['member'] },
  'bonus.read': { any: ADMIN_DEV, own: ['member'] },
  'bonus.give': { any: ADMIN_DEV },
  'withdraw.request': { any: [], own: ['member', 'dev'], notYours: 'You can only request a withdrawal for yourself.' },
  'withdraw.read': { any: ['admin', 'dev', 'staff'], own: ['member'] },
  /** every request at once (/withdraw/requested) */
  'withdraw.handle': { any: ['admin', 'dev', 'staff'] },
  /** Terima, Tolak, Batalkan */
  'withdraw.decide': { any: ['admin'] },
  /** where the money goes: the admin who transfers, and the request's own user */
  'withdraw.bank-details': { any: ['admin'], own: ROLES },

  // the catalogue: phone numbers, proxies, templates, levels (§2, admin and dev)
  'catalogue.manage': { any: ADMIN_DEV },
  /** the blaster form's receiver choices: every role that may send one-off messages */
  'receivers.read': { any: ['member', 'admin', 'dev'] },
  /** the operator's settings (fees, windows, texts): not the advertisers' business */
  'settings.read': { any: OPERATING_ROLES },
  'settings.update': { any: ADMIN_DEV },

  // generator and validator: admin and staff their own, dev all (§6)
  'tool.manage': { any: ['dev'], own: ['admin', 'staff'] },

  // WhatsApp accounts (§2, §6)
  'account.read': { any: ADMIN_DEV, own: ['member', 'staff'] },
  /** GET whatsapp/list: everybody's accounts */
  'account.list-all': { any: ADMIN_DEV },
  /** new-client, qr, client-state, remove-client, save: for oneself, or for another by admin and dev */
  'account.create-login': { any: ADMIN_DEV, own: ['member', 'staff'] },
  /** new-client's `engine`: which engine an account runs on is the operator's choice */
  'account.choose-engine': { any: ADMIN_DEV },
  /** interval and reset */
  'account.edit': { any: ADMIN_DEV, own: ['member', 'staff'] },
  /** send-message/1 (the blaster form): members from their own accounts, admin and dev from any */
  'account.send': { any: ADMIN_DEV, own: ['member'] },
  /** send-message/1 to any numbers (up to SEND_CAPS); the others only to the active target numbers */
  'account.send-any-number': { any: ADMIN_DEV },
  /** start and stop a blast: members their own accounts, dev any; admins only see Sending */
  'account.blast': { any: ['dev'], own: ['member'] },
  'account.reconnect': { any: ['dev'], own: ['member'] },
  /** lifting a suspension (while suspended_count is below 3) */
  'account.activate': { any: ADMIN_DEV },
  /** lift-pause: an account paused after ban signals may blast again */
  'account.lift-pause': { any: ADMIN_DEV },
  /** setting the run status by hand */
  'account.status': { any: ADMIN_DEV },

  /**
   * webhooks (issue 13): admins, devs, members and clients their own endpoints (not staff); admins'
   * and devs' hear everyone's events, anywhere; a client's hear their campaigns' (issue 22)
   */
  'webhook.manage': {
    any: ADMIN_DEV,
    own: ['admin', 'dev', 'member', 'client'],
    refusal: 'Webhooks are for admins, devs, members and clients.',
  },

  // campaigns (issue 22): an advertiser (client) their own; admins and devs everyone's
  'campaign.read': { any: ADMIN_DEV, own: ['client'], refusal: 'Campaigns are for admins, devs and clients.' },
  /** create, edit, submit, pause, finish and delete */
  'campaign.manage': { any: ADMIN_DEV, own: ['client'], refusal: 'Campaigns are for admins, devs and clients.' },
  /** a campaign goes live (pending → active) only once an admin or dev has looked at it */
  'campaign.approve': { any: ADMIN_DEV, refusal: 'Only an admin or dev approves a campaign.' },
  /** the price per delivered message and the priority: the operator's terms */
  'campaign.price': { any: ADMIN_DEV, refusal: 'Only an admin or dev sets the price and the priority.' },
  /** recording what an advertiser paid (a top-up adds to the campaign's rupiah budget) */
  'campaign.topup': { any: ADMIN_DEV, refusal: 'Only an admin or dev records a top-up.' },
  /** the client users a campaign may be made for */
  'campaign.clients': { any: ADMIN_DEV, refusal: 'Only an admin or dev lists the clients.' },

  // dev monitor
  monitor: { any: ['dev'] },
} satisfies Record<Ability, Rule>;

export type { Ability };

/** What an ability is asked about: whose row it is, and for some abilities that user's role. */
export interface Resource {
  userId: number | null;
  role?: Role;
}

const rule = (ability: Ability): Rule => POLICY[ability];

/** True when the actor's role may do it at all, to anyone's or to their own. */
function roleMay(actor: Actor, r: Rule): boolean {
  return r.any.includes(actor.role) || (r.own?.includes(actor.role) ?? false);
}

/**
 * Whether `actor` may do `ability`: without a resource, whether their role may at all (what a
 * route asks); with one, whether they may on that row.
 */
export function can(actor: Actor, ability: Ability, resource?: Resource): boolean {
  const r = rule(ability);
  if (!resource) return roleMay(actor, r);
  if (resource.userId === actor.id && r.own?.includes(actor.role)) return true;
  if (!r.any.includes(actor.role)) return false;
  return !(resource.role && r.notOver?.[actor.role]?.includes(resource.role));
}

/** Whether the actor may do it to anyone's rows (lists then show everybody's, not only their own). */
export function canForAnyone(actor: Actor, ability: Ability): boolean {
  return rule(ability).any.includes(actor.role);
}

/**
 * Throws the 403 the API has always answered: the rule's own text (or the generic one) when the
 * role may not do it at all, else `notYours` (or the rule's) when the resource is not theirs.
 */
export function assertCan(actor: Actor, ability: Ability, resource?: Resource, notYours?: string): void {
  const r = rule(ability);
  if (!roleMay(actor, r)) throw forbidden(r.refusal);
  if (resource && !can(actor, ability, resource)) throw forbidden(notYours ?? r.notYours);
}
