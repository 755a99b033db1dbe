import { parse } from '@wa/core/validate';
import { type GENERATOR, type GeneratorDto, idParam, type VALIDATOR, type ValidatorDto } from '@wa/shared';
import { type ErrorRequestHandler, type RequestHandler, Router } from 'express';
import { actorOf } from '../../http/auth';
import { bind } from '../../http/route';
import { discardAfter, discardUpload, mediaUpload, requireUpload } from '../../http/upload';
import type { ToolsService } from './tools.service';

type ToolDto = GeneratorDto | ValidatorDto;

/** The declarations of one tool (shared/src/api/tools.ts). */
export type ToolRoutes = typeof GENERATOR | typeof VALIDATOR;

/** A generator's service answers generators only: this says so to the compiler. */
function generatorOf(tool: ToolDto): GeneratorDto {
  if ('start_number' in tool) return tool;
  throw new Error(`tool ${tool.id} is not a generator`);
}

/** A validator's service answers validators only: this says so to the compiler. */
function validatorOf(tool: ToolDto): ValidatorDto {
  if ('fileName' in tool) return tool;
  throw new Error(`tool ${tool.id} is not a validator`);
}

const pageOf = <T, M>(page: { data: ToolDto[]; meta: M }, one: (tool: ToolDto) => T) => ({
  data: page.data.map(one),
  meta: page.meta,
});
const runOf = <T>(run: { data: ToolDto; msg: string }, one: (tool: ToolDto) => T) => ({
  data: one(run.data),
  msg: run.msg,
});

/** An edit answers the tool's 404/403 and 'Stop it first' before the form's errors, as it always has. */
const editable =
  (tools: ToolsService): RequestHandler =>
  async (req, _res, next) => {
    await tools.editable(actorOf(req), parse(idParam, req.params.id));
    next();
  };

/**
 * §7 Generator and validator: /api/admin/generator/… and /api/admin/validator/… (admin, staff and
 * dev; §6), as declared in shared/src/api/tools.ts; `group` is the declarations of the service's
 * kind. The two share every route but create and update: JSON for the generator, multipart for the
 * validator (with the file on create only). Create and update answer 200, which §7 counts as
 * success; the validator also serves its uploaded file (file/{id}).
 */
export function toolsRoutes(group: ToolRoutes, tools: ToolsService): Router {
  if (group.list.tag !== tools.kind) throw new Error(`the ${group.list.tag} routes given the ${tools.kind} service`);
  const r = Router();
  if ('file' in group) validatorRoutes(r, group, tools);
  else generatorRoutes(r, group, tools);
  bind(r, group.downloadResult, ({ req, params }) => tools.downloadResult(actorOf(req), params.id));
  bind(r, group.remove, ({ req, params }) => tools.remove(actorOf(req), params.id));
  return r;
}

function generatorRoutes(r: Router, g: typeof GENERATOR, tools: ToolsService): void {
  bind(r, g.list, async ({ req, query }) => pageOf(await tools.listPerPage(actorOf(req), query), generatorOf));
  bind(r, g.start, async ({ req, body }) => runOf(await tools.start(actorOf(req), body.id), generatorOf));
  bind(r, g.stop, async ({ req, body }) => runOf(await tools.stop(actorOf(req), body.id), generatorOf));
  bind(r, g.create, async ({ req, body }) => {
    const saved = await tools.createGenerator(actorOf(req), body);
    return { generator: generatorOf(saved.generator), msg: saved.msg };
  });
  bind(
    r,
    g.update,
    async ({ req, params, body }) => {
      const saved = await tools.updateGenerator(actorOf(req), params.id, body);
      return { generator: generatorOf(saved.generator), msg: saved.msg };
    },
    { before: [editable(tools)] },
  );
  bind(r, g.get, async ({ req, params }) => ({ generator: generatorOf(await tools.get(actorOf(req), params.id)) }));
}

function validatorRoutes(r: Router, g: typeof VALIDATOR, tools: ToolsService): void {
  const upload = mediaUpload(tools.uploadDir, ['csv', 'json'], 'the validator');
  // a missing file is refused before the fields are
  const fileRequired: RequestHandler = (req, _res, next) => {
    requireUpload(req.file);
    next();
  };
  // a validator's file is not editable (§5): one sent along is dropped
  const dropUpload: RequestHandler = async (req, _res, next) => {
    await discardUpload(req.file);
    next();
  };
  bind(r, g.list, async ({ req, query }) => pageOf(await tools.listPerPage(actorOf(req), query), validatorOf));
  bind(r, g.start, async ({ req, body }) => runOf(await tools.start(actorOf(req), body.id), validatorOf));
  bind(r, g.stop, async ({ req, body }) => runOf(await tools.stop(actorOf(req), body.id), validatorOf));
  bind(
    r,
    g.create,
    ({ req, body }) =>
      discardAfter(req.file, async () => {
        const saved = await tools.createValidator(actorOf(req), body, requireUpload(req.file));
        return { validator: validatorOf(saved.validator), msg: saved.msg };
      }),
    { before: [upload, fileRequired] },
  );
  bind(
    r,
    g.update,
    async ({ req, params, body }) => {
      const saved = await tools.updateValidator(actorOf(req), params.id, body);
      return { validator: validatorOf(saved.validator), msg: saved.msg };
    },
    { before: [upload, dropUpload, editable(tools)] },
  );
  // a member's contact list: a download only, never rendered, never cached on the way
  bind(r, g.file, async ({ req, res, params }) => {
    const file = await tools.file(actorOf(req), params.id);
    res.attachment(file.name);
    res.type(file.type);
    res.set({
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
    });
    res.send(file.bytes);
  });
  bind(r, g.get, async ({ req, params }) => ({ validator: validatorOf(await tools.get(actorOf(req), params.id)) }));
  // an upload refused before its handler ran (the fields' 400) is gone before the refusal is sent
  const discardRefused: ErrorRequestHandler = async (err, req, _res, next) => {
    await discardUpload(req.file);
    next(err);
  };
  r.use(discardRefused);
}
