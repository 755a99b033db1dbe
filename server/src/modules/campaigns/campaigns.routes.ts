import { CAMPAIGNS } from '@wa/shared';
import { Router } from 'express';
import { actorOf } from '../../http/auth';
import { bind } from '../../http/route';
import { campaignReportRoutes } from './campaign-report.routes';
import type { CampaignReportService } from './campaign-report.service';
import { campaignTargetsRoutes } from './campaign-targets.routes';
import type { CampaignTargetsService } from './campaign-targets.service';
import { campaignTemplatesRoutes } from './campaign-templates.routes';
import type { CampaignTemplatesService } from './campaign-templates.service';
import type { CampaignsService } from './campaigns.service';

/** What a campaign's parts are mounted with: its message variants (and where their uploads wait), its targets, its report. */
export interface CampaignParts {
  variants: CampaignTemplatesService;
  /** its target numbers */
  targets: CampaignTargetsService;
  /** its report, replies, leads and top-ups */
  reports: CampaignReportService;
  uploadDir: string;
}

/** /api/admin/campaigns (issue 22), as declared in shared/src/api/campaigns.ts. */
export function campaignsRoutes(campaigns: CampaignsService, parts: CampaignParts): Router {
  const r = Router();
  bind(r, CAMPAIGNS.list, ({ query, req }) => campaigns.list(actorOf(req), query));
  bind(r, CAMPAIGNS.create, async ({ body, req }) => ({ data: await campaigns.create(actorOf(req), body) }));
  bind(r, CAMPAIGNS.clients, ({ req }) => campaigns.clients(actorOf(req)));
  bind(r, CAMPAIGNS.get, async ({ params, req }) => ({ data: await campaigns.get(actorOf(req), params.id) }));
  bind(r, CAMPAIGNS.update, async ({ params, body, req }) => ({
    data: await campaigns.update(actorOf(req), params.id, body),
  }));
  bind(r, CAMPAIGNS.remove, ({ params, req }) => campaigns.remove(actorOf(req), params.id));
  bind(r, CAMPAIGNS.status, async ({ params, body, req }) => ({
    data: await campaigns.move(actorOf(req), params.id, body.status),
  }));
  r.use(campaignTemplatesRoutes(parts.variants, parts.uploadDir));
  r.use(campaignTargetsRoutes(parts.targets));
  r.use(campaignReportRoutes(parts.reports));
  return r;
}
