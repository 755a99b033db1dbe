import {
  campaignList,
  campaignListQuery,
  campaignResponse,
  campaignStatusBody,
  createCampaignBody,
  deletedCampaign,
  updateCampaignBody,
} from '../contract/campaigns';
import { idParam } from '../contract/common';
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
});
