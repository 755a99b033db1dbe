import { CAMPAIGN_TARGET_EXPORT, CAMPAIGNS } from '@wa/shared';
import { Router } from 'express';
import { actorOf } from '../../http/auth';
import { bind, WRITTEN } from '../../http/route';
import { sendCsv, streamDownload } from '../../http/stream';
import { receiveImport } from '../../imports/upload';
import type { CampaignTargetsService } from './campaign-targets.service';

/**
 * /api/admin/campaigns/{id}/targets… (issue 22): a campaign's targets, mounted by campaignsRoutes;
 * the list, export, import and skipped list work as the phone numbers' do.
 */
export function campaignTargetsRoutes(targets: CampaignTargetsService): Router {
  const r = Router();
  bind(r, CAMPAIGNS.targets, ({ params, query, req }) => targets.page(actorOf(req), params.id, query));
  bind(r, CAMPAIGNS.exportTargets, async ({ params, query, req, res }) => {
    const next = await targets.exportPages(actorOf(req), params.id);
    await streamDownload(res, {
      format: query.format,
      filename: CAMPAIGN_TARGET_EXPORT.file(params.id, query.format),
      columns: CAMPAIGN_TARGET_EXPORT.columns,
      next,
      pick: (p) => ({ number: p.number, name: p.name, status: p.status }),
    });
  });
  // the created rows are streamed from the import's files (a large list): written by the handler
  bind(r, CAMPAIGNS.importTargets, async ({ params, req, res }) => {
    const outcome = await targets.import(actorOf(req), params.id, (run) => receiveImport(req, run));
    res.status(200).type('application/json');
    await outcome.send(res);
    return WRITTEN;
  });
  bind(r, CAMPAIGNS.skippedTargets, async ({ params, req, res }) => {
    await sendCsv(res, await targets.skippedList(actorOf(req), params.id, params.importId));
  });
  return r;
}
