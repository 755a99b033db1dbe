import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { AppError, badRequest } from '@wa/core/errors';
import type { NextFunction, Request, Response } from 'express';
import multer from 'multer';

export const MEDIA_MAX_BYTES = 16 * 1024 * 1024;

/**
 * Multipart with one optional `file`, stored under `dir` with a random name that keeps a
 * lower-case allowed extension. Wrong types, oversize files and broken bodies become 4xx JSON.
 */
export function mediaUpload(dir: string, allowed: readonly string[], what = 'the template') {
  mkdirSync(dir, { recursive: true });
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
 * Runs `work`; when it throws (a form error, a refusal, a file that cannot be read) the upload
 * stored for this request is removed before the answer goes, so nothing refused stays on disk.
 */
export async function discardOnError<T>(file: Express.Multer.File | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    await discardUpload(file);
    throw err;
  }
}
