/**
 * The names of what a caller may do: the keys of core's POLICY table, which says who may. They
 * live here so a route declaration (shared/src/api) names its ability and the web can read it;
 * core's table must give a rule to each of them and to nothing else (`satisfies` there checks).
 */
export const ABILITIES = [
  'users.list',
  'user.read',
  'user.edit',
  'user.manage',
  'user.grant-dev',
  'user.credentials',
  'referral.read',
  'counters.read',
  'first-run.read',
  'report.read',
  'bonus.read',
  'bonus.give',
  'withdraw.request',
  'withdraw.read',
  'withdraw.handle',
  'withdraw.decide',
  'withdraw.bank-details',
  'catalogue.manage',
  'receivers.read',
  'settings.read',
  'settings.update',
  'tool.manage',
  'account.read',
  'account.list-all',
  'account.create-login',
  'account.choose-engine',
  'account.edit',
  'account.send',
  'account.send-any-number',
  'account.blast',
  'account.reconnect',
  'account.activate',
  'account.lift-pause',
  'account.status',
  'webhook.manage',
  'campaign.read',
  'campaign.manage',
  'campaign.approve',
  'campaign.price',
  'monitor',
] as const;

export type Ability = (typeof ABILITIES)[number];
