import { CAMPAIGNS } from '@wa/shared';
import { Router } from 'express';
import { actorOf } from '../../http/auth';
import { bind } from '../../http/route';
import { discardAfter } from '../../http/upload';
import { templateUpload } from '../templates/template-upload';
import type { CampaignTemplatesService } from './campaign-templates.service';

/**
 * /api/admin/campaigns/{id}/templates… (issue 22): a campaign's message variants, mounted by
 * campaignsRoutes. A variant is made with the template form (multipart, as POST
 * /admin/message/create); its medium waits in `uploadDir` only for its request.
 */
export function campaignTemplatesRoutes(variants: CampaignTemplatesService, uploadDir: string): Router {
  const r = Router();
  const { media, discardRefused } = templateUpload(uploadDir);
  bind(r, CAMPAIGNS.templates, ({ params, req }) => variants.list(actorOf(req), params.id));
  bind(
    r,
    CAMPAIGNS.createTemplate,
    ({ params, body, req }) => discardAfter(req.file, () => variants.create(actorOf(req), params.id, body, req.file)),
    { before: [media] },
  );
  bind(r, CAMPAIGNS.updateTemplate, ({ params, body, req }) =>
    variants.update(actorOf(req), params.id, params.templateId, body),
  );
  bind(r, CAMPAIGNS.removeTemplate, ({ params, req }) => variants.remove(actorOf(req), params.id, params.templateId));
  bind(r, CAMPAIGNS.approveTemplate, ({ params, req }) => variants.approve(actorOf(req), params.id, params.templateId));
  r.use(discardRefused);
  return r;
}
