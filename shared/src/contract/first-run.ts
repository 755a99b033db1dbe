import { z } from 'zod';

/**
 * GET /admin/first-run (issue 20): what the first-run checklist on the admin and dev dashboard
 * ticks. Each figure is over the whole installation; a step is done when its figure is above 0.
 */
export const firstRunResponse = z.object({
  accounts: z.number().int().describe('WhatsApp accounts of any user, in any state: "connect an account"'),
  targets: z
    .number()
    .int()
    .describe('target phone numbers of the default pool (not a campaign\'s), of any status: "import targets"'),
  templates: z.number().int().describe('active message templates: "write a template"'),
  messages: z
    .number()
    .int()
    .describe('blast messages WhatsApp ever accepted (the Total Blast success figure): "start a blast"'),
  done: z.boolean().describe('all four figures are above 0: the dashboard shows no checklist'),
});
export type FirstRunDto = z.infer<typeof firstRunResponse>;

/** The checklist's steps, in the order a newcomer takes them; each names the figure that ticks it. */
export const FIRST_RUN_STEPS = ['accounts', 'targets', 'templates', 'messages'] as const;
export type FirstRunStep = (typeof FIRST_RUN_STEPS)[number];
