import path from 'node:path';
import type { Readable } from 'node:stream';
import { AppError, badRequest } from '@wa/core/errors';
import type { ImportExt, ImportFile } from '@wa/core/imports/records';
import busboy from 'busboy';
import type { Request } from 'express';

export const IMPORT_MAX_BYTES = 512 * 1024 * 1024;
/** An upload that sends nothing for this long is given up (its temp files removed). */
export const IMPORT_IDLE_MS = 30_000;

/**
 * Receives the multipart field `file` and hands it to `handle` while it is still arriving, so a
 * file of any size is streamed, never held. Refuses a missing file, a type outside `accept`, and a
 * file over `maxBytes`, each with a 4xx and a message.
 */
export function receiveImport<T>(
  req: Request,
  handle: (file: ImportFile) => Promise<T>,
  opts: { accept?: ImportExt[]; maxBytes?: number; idleMs?: number } = {},
): Promise<T> {
  const accept = opts.accept ?? ['csv', 'json'];
  const maxBytes = opts.maxBytes ?? IMPORT_MAX_BYTES;
  const idleMs = opts.idleMs ?? IMPORT_IDLE_MS;
  const wrongType = badRequest(
    accept.length === 1
      ? `Only .${accept[0]} files are accepted.`
      : `Only ${accept.map((e) => `.${e}`).join(' and ')} files are accepted.`,
  );
  if (!req.is('multipart/form-data')) {
    return Promise.reject(badRequest('Upload the file as multipart/form-data in the field "file".'));
  }
  return new Promise<T>((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: req.headers, limits: { files: 1, fileSize: maxBytes, fields: 20, fieldSize: 64 * 1024 } });
    } catch {
      reject(badRequest('The upload is not valid multipart/form-data.'));
      return;
    }
    let handled = false;
    let settled = false;
    // the file stream being read, until it has ended: a cut-off upload must end the reading (it
    // would otherwise wait for bytes that never come)
    let reading: Readable | null = null;
    let idle: NodeJS.Timeout | null = null;
    const cutOff = (err: AppError) => {
      if (idle) clearTimeout(idle);
      if (reading && !reading.readableEnded) reading.destroy(err);
      finish(err);
    };
    const finish = (err: unknown, value?: T) => {
      if (idle) clearTimeout(idle);
      if (settled) return;
      settled = true;
      if (err) {
        // drain the rest so the client gets the answer instead of a reset connection
        req.unpipe(bb);
        req.resume();
        reject(err);
      } else resolve(value as T);
    };

    bb.on('file', (field: string, stream: Readable, info: busboy.FileInfo) => {
      if (field !== 'file' || handled) {
        stream.resume();
        return;
      }
      handled = true;
      const ext = path
        .extname(info.filename ?? '')
        .slice(1)
        .toLowerCase();
      if (!accept.includes(ext as ImportExt)) {
        stream.resume();
        finish(wrongType);
        return;
      }
      stream.on('limit', () => {
        stream.destroy(new AppError(413, `The file is larger than ${Math.round(maxBytes / 1024 / 1024)} MB.`));
      });
      reading = stream;
      const stalled = () => cutOff(new AppError(408, `The upload stalled: nothing arrived for ${idleMs / 1000} s.`));
      idle = setTimeout(stalled, idleMs);
      // bytes arriving on the request, not read from the file stream (a 'data' listener there
      // would take the flow from the parser)
      req.on('data', () => idle?.refresh());
      stream.once('end', () => {
        if (idle) clearTimeout(idle);
      });
      stream.setEncoding('utf8');
      const declared = Number(req.headers['content-length']);
      handle({
        name: info.filename ?? '',
        ext: ext as ImportExt,
        text: stream as AsyncIterable<string>,
        bytes: Number.isFinite(declared) && declared > 0 ? declared : undefined,
      }).then(
        (value) => {
          stream.resume();
          finish(null, value);
        },
        (err) => {
          stream.resume();
          finish(err);
        },
      );
    });
    bb.on('close', () => {
      if (!handled) finish(badRequest('File is required.'));
    });
    bb.on('error', () => cutOff(badRequest('The upload was cut off or is not valid multipart/form-data.')));
    req.on('aborted', () => cutOff(badRequest('The upload was cut off.')));
    // a client gone before its file has ended (the socket closed mid-body)
    req.on('close', () => {
      if (!req.complete) cutOff(badRequest('The upload was cut off.'));
    });
    req.pipe(bb);
  });
}
