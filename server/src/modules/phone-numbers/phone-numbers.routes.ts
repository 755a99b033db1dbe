import { PHONE_EXPORT, PHONE_NUMBERS } from '@wa/shared';
import { Router } from 'express';
import { actorOf } from '../../http/auth';
import { bind, WRITTEN } from '../../http/route';
import { sendCsv, streamDownload } from '../../http/stream';
import { receiveImport } from '../../imports/upload';
import { writeChunk } from '../../imports/write-chunk';
import type { PhoneNumbersService } from './phone-numbers.service';

/**
 * §7 Phone numbers: /api/admin/phonenumber/… (admin and dev; the blaster's receivers also
 * members), as declared in shared/src/api/phone-numbers.ts.
 */
export function phoneNumbersRoutes(phones: PhoneNumbersService): Router {
  const r = Router();
  // the blaster form's receiver choices: every role that may use send-message/1
  bind(r, PHONE_NUMBERS.receivers, ({ query }) => phones.receivers(query));

  // every number, streamed (the blaster's receiver list; a million rows never sit in memory): the
  // handler writes the answer itself and says so (WRITTEN)
  bind(r, PHONE_NUMBERS.list, async ({ res }) => {
    res.type('application/json');
    await writeChunk(res, '{"list":[');
    let after = 0;
    let first = true;
    for (;;) {
      const page = await phones.after(after);
      if (!page.length || res.destroyed) break;
      await writeChunk(res, (first ? '' : ',') + page.map((p) => JSON.stringify(p)).join(','));
      first = false;
      after = page[page.length - 1].id;
    }
    await writeChunk(res, ']}');
    res.end();
    return WRITTEN;
  });
  bind(r, PHONE_NUMBERS.page, ({ query }) => phones.listPerPage(query.page, query.search, query.status));
  bind(r, PHONE_NUMBERS.countBlast, () => phones.countBlast());
  bind(r, PHONE_NUMBERS.export, async ({ query, res }) => {
    await streamDownload(res, {
      format: query.format,
      filename: PHONE_EXPORT[query.format],
      columns: PHONE_EXPORT.columns,
      next: (after) => phones.after(after),
      pick: (p) => ({ number: p.number, name: p.name, status: p.status }),
    });
  });
  bind(r, PHONE_NUMBERS.save, ({ body }) => phones.save(body));
  // streamed from the import's files too (a million created rows): written by the handler
  bind(r, PHONE_NUMBERS.import, async ({ req, res }) => {
    const owner = actorOf(req).id;
    const outcome = await receiveImport(req, (file) => phones.import(file, owner));
    res.status(200).type('application/json');
    await outcome.send(res);
    return WRITTEN;
  });
  bind(r, PHONE_NUMBERS.skipped, async ({ params, req, res }) => {
    await sendCsv(res, phones.skippedList(actorOf(req).id, params.id));
  });
  bind(r, PHONE_NUMBERS.get, ({ params }) => phones.get(params.id));
  bind(r, PHONE_NUMBERS.update, ({ params, body }) => phones.update(params.id, body));
  bind(r, PHONE_NUMBERS.remove, ({ params }) => phones.remove(params.id));
  return r;
}
