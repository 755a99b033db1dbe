import { TEMPLATE_MEDIA_EXTENSIONS } from '@wa/shared';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { discardUpload, mediaUpload } from '../../http/upload';

/**
 * The multipart form of a message template, as POST /admin/message/create and a campaign's
 * variants (POST /admin/campaigns/{id}/templates) take it: the text fields and one optional medium
 * of TEMPLATE_MEDIA_EXTENSIONS, which waits in `uploadDir` only for its request.
 */
export interface TemplateUpload {
  /** parses the form; runs after the route's guard, before the declaration's body schema */
  media: RequestHandler;
  /**
   * for the end of the router: an upload refused before its handler ran (a field of the form, a
   * 404) is removed before the refusal is answered; one the handler took goes with `discardAfter`
   */
  discardRefused: ErrorRequestHandler;
}

/** The form's middleware for one router. */
export function templateUpload(uploadDir: string): TemplateUpload {
  return {
    media: mediaUpload(uploadDir, TEMPLATE_MEDIA_EXTENSIONS),
    discardRefused: (err, req, _res, next) => {
      discardUpload(req.file).then(
        () => next(err),
        () => next(err),
      );
    },
  };
}
