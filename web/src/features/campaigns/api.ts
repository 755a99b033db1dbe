import { type BodyIn, CAMPAIGNS, type CampaignStatus, type PhoneStatus } from '@wa/shared';
import { request, requestForm, urlOf } from '../../api/client';

/** A download's address: a plain GET the browser streams to disk (the auth cookie goes along). */
const download = (path: string) => `/api${path}`;

/** Issue 22: /api/admin/campaigns and its parts (targets, variants, report, replies, top-ups). */
export const campaignsApi = {
  /** the client users (admin and dev): whom a new campaign is for */
  clients: async () => (await request(CAMPAIGNS.clients, { fallback: 'Error fetching the clients' })).data,
  list: (page: number, status?: CampaignStatus) =>
    request(CAMPAIGNS.list, { query: { page, status }, fallback: 'Error fetching campaigns' }),
  create: (body: BodyIn<typeof CAMPAIGNS.create>) =>
    request(CAMPAIGNS.create, { body, fallback: 'Error creating the campaign' }),
  get: async (id: number) =>
    (await request(CAMPAIGNS.get, { params: { id }, fallback: 'Error fetching the campaign' })).data,
  update: (id: number, body: BodyIn<typeof CAMPAIGNS.update>) =>
    request(CAMPAIGNS.update, { params: { id }, body, fallback: 'Error saving the campaign' }),
  remove: (id: number) => request(CAMPAIGNS.remove, { params: { id }, fallback: 'Error deleting the campaign' }),
  move: (id: number, status: CampaignStatus) =>
    request(CAMPAIGNS.status, { params: { id }, body: { status }, fallback: 'Error changing the status' }),

  targets: (id: number, page: number, search: string, status?: PhoneStatus) =>
    request(CAMPAIGNS.targets, {
      params: { id },
      query: { page, search, status },
      fallback: 'Error fetching the targets',
    }),
  targetsExportUrl: (id: number, format: 'csv' | 'json') =>
    download(urlOf(CAMPAIGNS.exportTargets, { params: { id }, query: { format } })),
  importTargets: (id: number, form: FormData) =>
    requestForm(CAMPAIGNS.importTargets, form, { params: { id }, fallback: 'Error importing the targets' }),
  skippedTargetsUrl: (id: number, importId: string) =>
    download(urlOf(CAMPAIGNS.skippedTargets, { params: { id, importId } })),

  variants: async (id: number) =>
    (await request(CAMPAIGNS.templates, { params: { id }, fallback: 'Error fetching the variants' })).data,
  createVariant: (id: number, form: FormData) =>
    requestForm(CAMPAIGNS.createTemplate, form, { params: { id }, fallback: 'Error saving the variant' }),
  updateVariant: (id: number, templateId: number, body: BodyIn<typeof CAMPAIGNS.updateTemplate>) =>
    request(CAMPAIGNS.updateTemplate, {
      params: { id, templateId },
      body,
      fallback: 'Error updating the variant',
    }),
  removeVariant: (id: number, templateId: number) =>
    request(CAMPAIGNS.removeTemplate, { params: { id, templateId }, fallback: 'Error deleting the variant' }),
  approveVariant: (id: number, templateId: number) =>
    request(CAMPAIGNS.approveTemplate, { params: { id, templateId }, fallback: 'Error approving the variant' }),

  report: (id: number) => request(CAMPAIGNS.report, { params: { id }, fallback: 'Error fetching the report' }),
  reportExportUrl: (id: number, format: 'csv' | 'json') =>
    download(urlOf(CAMPAIGNS.reportExport, { params: { id }, query: { format } })),
  replies: (id: number, page: number) =>
    request(CAMPAIGNS.replies, { params: { id }, query: { page }, fallback: 'Error fetching the replies' }),
  leadsUrl: (id: number) => download(urlOf(CAMPAIGNS.leadsExport, { params: { id } })),
  topups: (id: number) => request(CAMPAIGNS.topups, { params: { id }, fallback: 'Error fetching the top-ups' }),
  topup: (id: number, body: BodyIn<typeof CAMPAIGNS.topup>) =>
    request(CAMPAIGNS.topup, { params: { id }, body, fallback: 'Error recording the top-up' }),
};
