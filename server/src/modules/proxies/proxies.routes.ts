import { parse } from '@wa/core/validate';
import {
  exportQuery,
  idParam,
  PROXY_EXPORT,
  pageQuery,
  saveProxyBody,
  skippedListId,
  updateProxyBody,
} from '@wa/shared';
import { Router } from 'express';
import { actorOf, allow } from '../../http/auth';
import { sendCsv, streamDownload } from '../../http/stream';
import { receiveImport } from '../../imports/upload';
import type { ProxiesService } from './proxies.service';

const csvFirst = exportQuery('csv');

/** §7 Proxy: /api/admin/proxy/… (admin and dev). */
export function proxiesRoutes(proxies: ProxiesService): Router {
  const r = Router();
  r.use(allow('catalogue.manage'));
  const all = (after: number) => proxies.after(after);

  r.get('/list', async (_req, res) => {
    const list = [];
    for (let after = 0; ; ) {
      const page = await all(after);
      if (!page.length) break;
      list.push(...page);
      after = page[page.length - 1].id;
    }
    res.json({ list });
  });
  r.get('/list-per-page', async (req, res) => {
    const q = parse(pageQuery, req.query);
    res.json(await proxies.listPerPage(q.page, q.search));
  });
  r.get('/count-use', async (_req, res) => {
    res.json(await proxies.countUse());
  });
  r.get('/export', async (req, res) => {
    const { format } = parse(csvFirst, req.query);
    await streamDownload(res, {
      format,
      filename: PROXY_EXPORT[format],
      columns: PROXY_EXPORT.columns,
      next: all,
      pick: (p) => ({ value: p.value, status: p.status }),
    });
  });
  r.post('/save', async (req, res) => {
    res.status(201).json(await proxies.save(parse(saveProxyBody, req.body ?? {})));
  });
  r.post('/import', async (req, res) => {
    const owner = actorOf(req).id;
    const outcome = await receiveImport(req, (file) => proxies.import(file, owner));
    res.status(200).type('application/json');
    await outcome.send(res);
  });
  r.get('/import/skipped/:id', async (req, res) => {
    await sendCsv(res, proxies.skippedList(actorOf(req).id, parse(skippedListId, req.params.id)));
  });
  r.get('/:id', async (req, res) => {
    res.json(await proxies.get(parse(idParam, req.params.id)));
  });
  r.put('/:id', async (req, res) => {
    const id = parse(idParam, req.params.id);
    res.json(await proxies.update(id, parse(updateProxyBody, req.body ?? {})));
  });
  r.delete('/:id', async (req, res) => {
    res.json(await proxies.remove(parse(idParam, req.params.id)));
  });
  return r;
}
