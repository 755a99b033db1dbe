import { PROXIES, PROXY_EXPORT } from '@wa/shared';
import { Router } from 'express';
import { actorOf } from '../../http/auth';
import { bind, WRITTEN } from '../../http/route';
import { sendCsv, streamDownload } from '../../http/stream';
import { receiveImport } from '../../imports/upload';
import type { ProxiesService } from './proxies.service';

/** §7 Proxy: /api/admin/proxy/… (admin and dev), as declared in shared/src/api/proxies.ts. */
export function proxiesRoutes(proxies: ProxiesService): Router {
  const r = Router();
  const all = (after: number) => proxies.after(after);

  bind(r, PROXIES.list, async () => {
    const list = [];
    for (let after = 0; ; ) {
      const page = await all(after);
      if (!page.length) break;
      list.push(...page);
      after = page[page.length - 1].id;
    }
    return { list };
  });
  bind(r, PROXIES.page, ({ query }) => proxies.listPerPage(query.page, query.search));
  bind(r, PROXIES.countUse, () => proxies.countUse());
  bind(r, PROXIES.export, async ({ query, res }) => {
    await streamDownload(res, {
      format: query.format,
      filename: PROXY_EXPORT[query.format],
      columns: PROXY_EXPORT.columns,
      next: all,
      pick: (p) => ({ value: p.value, status: p.status }),
    });
  });
  bind(r, PROXIES.save, ({ body }) => proxies.save(body));
  // the answer is streamed from the import's files (a million created rows never sit in memory),
  // so the handler writes it itself and says so (WRITTEN)
  bind(r, PROXIES.import, async ({ req, res }) => {
    const owner = actorOf(req).id;
    const outcome = await receiveImport(req, (file) => proxies.import(file, owner));
    res.status(200).type('application/json');
    await outcome.send(res);
    return WRITTEN;
  });
  bind(r, PROXIES.skipped, async ({ params, req, res }) => {
    await sendCsv(res, proxies.skippedList(actorOf(req).id, params.id));
  });
  bind(r, PROXIES.get, ({ params }) => proxies.get(params.id));
  bind(r, PROXIES.update, ({ params, body }) => proxies.update(params.id, body));
  bind(r, PROXIES.remove, ({ params }) => proxies.remove(params.id));
  return r;
}
