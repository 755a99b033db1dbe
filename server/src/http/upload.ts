import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError, badRequest } from '@wa/core/errors';
import { STORED_FILE_MAX_BYTES } from '@wa/core/files/file-store';
import type { NextFunction, Request, Response } from 'express';
import multer from 'multer';

export const MEDIA_MAX_BYTES = STORED_FILE_MAX_BYTES;

/**
 * Multipart with one optional `file`, stored under `dir` with a random name that keeps a
 * lower-case allowed extension (the name it keeps in the file store). Wrong types, oversize files
 * and broken bodies become 4xx JSON.
 */
export function mediaUpload(dir: string, allowed: readonly string[], what = 'the template') {
  mkdirSync(dir, { recursive: true });
  void pruneStale(dir);
  const upload = multer({
    storage: multer.diskStorage({
      destination: dir,
      filename: (_req, file, cb) => {
        const ext = path.extname(file.originalname).slice(1).toLowerCase();
        cb(null, `${Date.now()}-${randomBytes(6).toString('hex')}.${ext}`);
      },
    }),
    limits: { fileSize: MEDIA_MAX_BYTES, files: 1, fields: 20, fieldSize: 256 * 1024 },
    fileFilter: (_req, file, cb) => {
      const ext = path.extname(file.originalname).slice(1).toLowerCase();
      if (allowed.includes(ext)) cb(null, true);
      else cb(badRequest(`File type not allowed: .${ext || '?'}`));
    },
  }).single('file');
  return (req: Request, res: Response, next: NextFunction) => {
    if (!req.is('multipart/form-data')) {
      next(badRequest(`Send ${what} as multipart/form-data.`));
      return;
    }
    upload(req, res, (err: unknown) => {
      if (!err) return next();
      if (err instanceof AppError) return next(err);
      if (err instanceof multer.MulterError) {
        if (err.code === 'LIMIT_FILE_SIZE')
          return next(new AppError(413, `The file is larger than ${MEDIA_MAX_BYTES / 1024 / 1024} MB.`));
        return next(badRequest(`Upload refused: ${err.message}`));
      }
      next(badRequest('The upload is not valid multipart/form-data.'));
    });
  };
}

/** An upload older than this was left by a process that died mid-request (none lives longer). */
const STALE_UPLOAD_MS = 60 * 60 * 1000;

/** Removes what a process that died mid-request left in `dir`; best effort, at start. */
async function pruneStale(dir: string): Promise<void> {
  const names = await readdir(dir).catch((): string[] => []);
  for (const name of names) {
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => null);
    if (info?.isFile() && Date.now() - info.mtimeMs > STALE_UPLOAD_MS) await rm(file, { force: true });
  }
}

/** The file multer stored for this request, or the form's 400 when none came. */
export function requireUpload(file: Express.Multer.File | undefined): Express.Multer.File {
  if (!file) throw badRequest('File is required.', { file: 'File is required.' });
  return file;
}

/** Removes a stored upload (a no-op without one). */
export async function discardUpload(file: Express.Multer.File | undefined): Promise<void> {
  if (file) await rm(file.path, { force: true });
}

/**
 * Runs `work`, then removes the upload multer wrote for this request, whatever happened: a refused
 * one is not kept, and a taken one is in the file store by then (the disk is not where hosts share
 * it), so no upload outlives its request on disk.
 */
export async function discardAfter<T>(file: Express.Multer.File | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } finally {
    await discardUpload(file);
  }
}
