import { z } from 'zod';
import { normalizePhone } from '../format';
import { hasNul, NUL_MSG } from './common';
import { DEVICE_ID_PATTERN } from './whatsapp';

/**
 * POST /api/dev/sim/{deviceId} (dev only, when WA_DRIVER=sim): makes something happen on the
 * simulated WhatsApp's side of a live account, so a newcomer can watch the account-safety rules act.
 */
export const SIM_ACTIONS = [
  'revoke',
  'reply',
  'fail',
  'ban',
  'ack',
  'disconnect',
  'reconnect',
  'conflict',
  'logout',
] as const;

/** The receipts the simulator can be told to send for a message. */
export const SIM_ACK_KINDS = ['delivered', 'read', 'failed'] as const;
export type SimAction = (typeof SIM_ACTIONS)[number];

export const SIM_FAIL_KINDS = ['generic', 'rate-limit', 'restricted'] as const;

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text.` })
    .max(max, `${label} must be at most ${max} characters.`)
    .refine((v) => !hasNul(v), `${label} ${NUL_MSG}`);

export const simDeviceParam = z
  .string()
  .regex(DEVICE_ID_PATTERN, 'The device id must look like id-{timestamp}-{number}.');

const simple = (action: 'disconnect' | 'reconnect' | 'conflict' | 'logout') => z.object({ action: z.literal(action) });

/** The body: `{action, ...}` with what the action needs. */
export const simCommandBody = z.discriminatedUnion(
  'action',
  [
    z.object({ action: z.literal('revoke'), messageId: text('messageId', 200).trim().min(1).optional() }),
    z
      .object({
        action: z.literal('reply'),
        from: text('from', 30).transform((v, ctx) => {
          const n = normalizePhone(v);
          if (!n) {
            ctx.addIssue({ code: 'custom', message: 'from must be a phone number like 6281xxxxxxx.' });
            return z.NEVER;
          }
          return n;
        }),
        text: text('text', 4000).optional(),
        buttonId: text('buttonId', 200).trim().min(1).optional(),
      })
      .refine((v) => v.text !== undefined || v.buttonId !== undefined, {
        message: 'A reply needs text or buttonId.',
        path: ['text'],
      }),
    z.object({
      action: z.literal('fail'),
      count: z
        .number({ error: 'count must be a number.' })
        .int('count must be a whole number.')
        .min(1, 'count must be at least 1.')
        .max(1000, 'count must be at most 1000.'),
      kind: z.enum(SIM_FAIL_KINDS, { error: `kind must be one of ${SIM_FAIL_KINDS.join(', ')}.` }).default('generic'),
    }),
    z.object({ action: z.literal('ban'), reason: text('reason', 200).trim().min(1).optional() }),
    z.object({
      action: z.literal('ack'),
      messageId: text('messageId', 200).trim().min(1, 'messageId is required.'),
      ack: z.enum(SIM_ACK_KINDS, { error: `ack must be one of ${SIM_ACK_KINDS.join(', ')}.` }),
    }),
    simple('disconnect'),
    simple('reconnect'),
    simple('conflict'),
    simple('logout'),
  ],
  { error: `action must be one of ${SIM_ACTIONS.join(', ')}.` },
);

export type SimCommand = z.output<typeof simCommandBody>;

/** What the simulator did: the message revoked, when the action was a revoke. */
export interface SimResult {
  deviceId: string;
  action: SimAction;
  messageId?: string;
}

/** POST /dev/sim/{deviceId}: what the simulator did. */
export const simResponse = z.object({
  data: z.object({
    deviceId: z.string(),
    action: z.enum(SIM_ACTIONS),
    messageId: z.string().optional().describe('the message revoked, when the action was a revoke'),
  }),
});
