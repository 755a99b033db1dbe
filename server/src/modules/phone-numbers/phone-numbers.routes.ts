import { parse } from '@wa/core/validate';
import {
  exportQuery,
  idParam,
  PHONE_EXPORT,
  phoneListQuery,
  receiversQuery,
  savePhoneNumberBody,
  skippedListId,
  updatePhoneNumberBody,
} from '@wa/shared';
import { Router } from 'express';
import { actorOf, allow } from '../../http/auth';
import { sendCsv, streamDownload } from '../../http/stream';
import { receiveImport } from '../../imports/upload';
import { writeChunk } from '../../imports/write-chunk';
import type { PhoneNumbersService } from './phone-numbers.service';

const csvFirst = exportQuery('csv');

/** §7 Phone numbers: /api/admin/phonenumber/… (admin and dev; the blaster's receivers also members). */
export function phoneNumbersRoutes(phones: PhoneNumbersService): Router {
  const r = Router();
  // the blaster form's receiver choices: every role that may use send-message/1
  r.get('/receivers', allow('receivers.read'), async (req, res) => {
    res.json(await phones.receivers(parse(receiversQuery, req.query)));
  });
  r.use(allow('catalogue.manage'));

  // every number, streamed (the blaster's receiver list; a million rows never sit in memory)
  r.get('/list', async (_req, res) => {
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
  });
  r.get('/list-per-page', async (req, res) => {
    const q = parse(phoneListQuery, req.query);
    res.json(await phones.listPerPage(q.page, q.search, q.status));
  });
  r.get('/count-blast', async (_req, res) => {
    res.json(await phones.countBlast());
  });
  r.get('/export', async (req, res) => {
    const { format } = parse(csvFirst, req.query);
    await streamDownload(res, {
      format,
      filename: PHONE_EXPORT[format],
      columns: PHONE_EXPORT.columns,
      next: (after) => phones.after(after),
      pick: (p) => ({ number: p.number, name: p.name, status: p.status }),
    });
  });
  r.post('/save', async (req, res) => {
    res.status(201).json(await phones.save(parse(savePhoneNumberBody, req.body ?? {})));
  });
  r.post('/import', async (req, res) => {
    const owner = actorOf(req).id;
    const outcome = await receiveImport(req, (file) => phones.import(file, owner));
    res.status(200).type('application/json');
    await outcome.send(res);
  });
  r.get('/import/skipped/:id', async (req, res) => {
    await sendCsv(res, phones.skippedList(actorOf(req).id, parse(skippedListId, req.params.id)));
  });
  r.get('/:id', async (req, res) => {
    res.json(await phones.get(parse(idParam, req.params.id)));
  });
  r.put('/:id', async (req, res) => {
    const id = parse(idParam, req.params.id);
    res.json(await phones.update(id, parse(updatePhoneNumberBody, req.body ?? {})));
  });
  r.delete('/:id', async (req, res) => {
    res.json(await phones.remove(parse(idParam, req.params.id)));
  });
  return r;
}
