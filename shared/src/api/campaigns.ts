import {
  campaignReplyList,
  campaignReplyQuery,
  campaignReport,
  campaignTopupBody,
  campaignTopupList,
  campaignTopupResult,
} from '../contract/campaign-report';
import {
  campaignSkippedListId,
  campaignTargetImportResult,
  campaignTargetPage,
  campaignTargetsExportQuery,
  campaignTargetsQuery,
} from '../contract/campaign-targets';
import {
  campaignTemplateFields,
  campaignTemplateList,
  savedCampaignTemplate,
  updateCampaignTemplateBody,
} from '../contract/campaign-templates';
import {
  campaignClientList,
  campaignList,
  campaignListQuery,
  campaignResponse,
  campaignStatusBody,
  createCampaignBody,
  deletedCampaign,
  updateCampaignBody,
} from '../contract/campaigns';
import { deletedResponse, exportQuery, idParam } from '../contract/common';
import { routes } from './define';

/**
 * /api/admin/campaigns (issue 22): a client's own campaigns, admins' and devs' everybody's. Another
 * client's campaign answers 404, as one that does not exist.
 */
export const CAMPAIGNS = routes('campaigns', '/admin/campaigns', {
  list: {
    method: 'get',
    path: '/',
    summary: "Campaigns, newest first: a client's own, everybody's for admins and devs",
    access: 'campaign.read',
    query: campaignListQuery,
    response: campaignList,
  },
  create: {
    method: 'post',
    path: '/',
    summary: 'Create a campaign (a draft): a client for themselves, an admin or dev for a client (client_id)',
    access: 'campaign.manage',
    body: createCampaignBody,
    status: 201,
    response: campaignResponse,
  },
  // before /{id}: a path of its own
  clients: {
    method: 'get',
    path: '/clients',
    summary: 'The users with the client role, whom a campaign may be made for (admin and dev)',
    access: 'campaign.clients',
    response: campaignClientList,
  },
  get: {
    method: 'get',
    path: '/{id}',
    summary: 'A campaign and its figures',
    access: 'campaign.read',
    params: { id: idParam },
    response: campaignResponse,
  },
  update: {
    method: 'put',
    path: '/{id}',
    summary: "Change a campaign's terms (a client: while draft, pending or paused; price and priority: admin and dev)",
    access: 'campaign.manage',
    params: { id: idParam },
    body: updateCampaignBody,
    response: campaignResponse,
  },
  remove: {
    method: 'delete',
    path: '/{id}',
    summary: 'Delete a draft or pending campaign',
    access: 'campaign.manage',
    params: { id: idParam },
    response: deletedCampaign,
  },
  status: {
    method: 'post',
    path: '/{id}/status',
    summary:
      'Move a campaign: submit (draft → pending), approve (pending → active: admin and dev), pause, resume, finish',
    access: 'campaign.manage',
    params: { id: idParam },
    body: campaignStatusBody,
    response: campaignResponse,
  },
  // targets
  targets: {
    method: 'get',
    path: '/{id}/targets',
    summary: "A page of a campaign's targets, newest first (search: number prefix or name; status)",
    access: 'campaign.read',
    params: { id: idParam },
    query: campaignTargetsQuery,
    response: campaignTargetPage,
  },
  exportTargets: {
    method: 'get',
    path: '/{id}/targets/export',
    summary: "Export a campaign's targets (CSV or JSON download)",
    access: 'campaign.read',
    params: { id: idParam },
    query: campaignTargetsExportQuery,
    produces: 'text/csv',
  },
  importTargets: {
    method: 'post',
    path: '/{id}/targets/import',
    summary:
      "Import targets into a campaign (CSV or JSON, as the phone numbers' import): numbers already in it or opted out anywhere are skipped",
    access: 'campaign.manage',
    params: { id: idParam },
    file: { name: 'file', required: true, description: 'the file to import' },
    response: campaignTargetImportResult,
  },
  skippedTargets: {
    method: 'get',
    path: '/{id}/targets/import/skipped/{importId}',
    summary: "The full skipped list of the caller's import into the campaign (CSV download, kept an hour)",
    access: 'campaign.manage',
    params: { id: idParam, importId: campaignSkippedListId },
    produces: 'text/csv',
  },
  // templates
  templates: {
    method: 'get',
    path: '/{id}/templates',
    summary: "A campaign's message variants, oldest first, with their weight and approval",
    access: 'campaign.read',
    params: { id: idParam },
    response: campaignTemplateList,
  },
  createTemplate: {
    method: 'post',
    path: '/{id}/templates',
    summary:
      "Add a message variant (the template form, plus weight 1..1000) while the campaign is not finished: an admin's or dev's is approved at once, a client's is sent only once approved",
    access: 'campaign.manage',
    params: { id: idParam },
    body: campaignTemplateFields,
    file: { name: 'file', required: false, description: 'the media' },
    status: 201,
    response: savedCampaignTemplate,
  },
  updateTemplate: {
    method: 'put',
    path: '/{id}/templates/{templateId}',
    summary: "Change a variant's weight or status (its approval stays)",
    access: 'campaign.manage',
    params: { id: idParam, templateId: idParam },
    body: updateCampaignTemplateBody,
    response: savedCampaignTemplate,
  },
  removeTemplate: {
    method: 'delete',
    path: '/{id}/templates/{templateId}',
    summary: 'Delete a variant (and its media)',
    access: 'campaign.manage',
    params: { id: idParam, templateId: idParam },
    response: deletedResponse,
  },
  approveTemplate: {
    method: 'post',
    path: '/{id}/templates/{templateId}/approve',
    summary: 'Approve a variant for sending (admin and dev; approving again keeps the first approval)',
    access: 'campaign.approve',
    params: { id: idParam, templateId: idParam },
    response: savedCampaignTemplate,
  },
  // report
  report: {
    method: 'get',
    path: '/{id}/report',
    summary: 'The campaign per day and variant: sent, delivered, read, failed, replied, opted out, cost, fees, margin',
    access: 'campaign.read',
    params: { id: idParam },
    response: campaignReport,
  },
  reportExport: {
    method: 'get',
    path: '/{id}/report/export',
    summary: "Download the campaign's report as CSV or JSON",
    access: 'campaign.read',
    params: { id: idParam },
    query: exportQuery('csv'),
    produces: 'text/csv',
  },
  replies: {
    method: 'get',
    path: '/{id}/replies',
    summary: "The campaign's replies, newest first: the number, its name and what it said (never the member's account)",
    access: 'campaign.read',
    params: { id: idParam },
    query: campaignReplyQuery,
    response: campaignReplyList,
  },
  leadsExport: {
    method: 'get',
    path: '/{id}/leads/export',
    summary: 'Download the leads as CSV: the numbers that replied and did not opt out',
    access: 'campaign.read',
    params: { id: idParam },
    produces: 'text/csv',
  },
  topups: {
    method: 'get',
    path: '/{id}/topups',
    summary: "The campaign's top-ups, newest first, and their total",
    access: 'campaign.read',
    params: { id: idParam },
    response: campaignTopupList,
  },
  topup: {
    method: 'post',
    path: '/{id}/topups',
    summary:
      "Record an advertiser's top-up (admin and dev): it adds to the rupiah budget, and pauses a campaign its budget had finished",
    access: 'campaign.topup',
    params: { id: idParam },
    body: campaignTopupBody,
    status: 201,
    response: campaignTopupResult,
  },
});
