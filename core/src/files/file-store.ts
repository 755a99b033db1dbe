import path from 'node:path';

/** What a stored file is: a template's medium (served publicly) or a validator's upload (private). */
export type FileKind = 'template' | 'validator';

/** An upload is at most this big (template media and validator files alike), in the store as at the door. */
export const STORED_FILE_MAX_BYTES = 16 * 1024 * 1024;

/** A stored file as read back. */
export interface StoredFile {
  bytes: Buffer;
  mimetype: string;
  size: number;
  /** when it was stored (Last-Modified of the public media route) */
  createdAt: Date;
}

/**
 * Where uploads live so that every host reads them (issue 19): the API stores a template's medium
 * or a validator's file when it is uploaded, its routes serve them, and the engine on any worker
 * reads them to send or check. PostgreSQL (or PGlite) by default, DbFileStore; an object store
 * would be another implementation of these four calls. Names are the stored names the rows point
 * at, unique per kind, and a stored file never changes (a new upload gets a new name).
 */
export interface FileStore {
  /** Stores (or replaces) a file; refuses one over STORED_FILE_MAX_BYTES. */
  put(kind: FileKind, name: string, data: Buffer | AsyncIterable<Uint8Array>, mimetype: string): Promise<void>;
  /** The file, or null when there is none by that name. */
  get(kind: FileKind, name: string): Promise<StoredFile | null>;
  /** Whether there is one, without reading it. */
  has(kind: FileKind, name: string): Promise<boolean>;
  /** Removes a file; a no-op when it is not there. */
  remove(kind: FileKind, name: string): Promise<void>;
}

/** Thrown by `put` for a file over STORED_FILE_MAX_BYTES. */
export class FileTooLargeError extends Error {
  constructor() {
    super(`The file is larger than ${STORED_FILE_MAX_BYTES / 1024 / 1024} MB.`);
  }
}

/** The bytes of `data`, refused past STORED_FILE_MAX_BYTES while reading (a stream is not read to its end). */
export async function collectBytes(data: Buffer | AsyncIterable<Uint8Array>): Promise<Buffer> {
  if (Buffer.isBuffer(data)) {
    if (data.length > STORED_FILE_MAX_BYTES) throw new FileTooLargeError();
    return data;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of data) {
    size += chunk.length;
    if (size > STORED_FILE_MAX_BYTES) throw new FileTooLargeError();
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks, size);
}

/**
 * The stored name a column names ('/uploads/templates/<name>', '/uploads/validators/<name>' or the
 * bare name), or null for one that could name a folder or a hidden file: the name is used as a file
 * name on disk (the legacy fallback, the engine's cache), so it must never climb out of its folder.
 */
export function storedName(url: string): string | null {
  if (url.endsWith('/')) return null;
  const name = path.posix.basename(url);
  if (!name || name.startsWith('.') || name.includes('\\') || name.includes('\0')) return null;
  return name;
}

const MIME: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  svg: 'image/svg+xml',
  mp4: 'video/mp4',
  '3gp': 'video/3gpp',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  pdf: 'application/pdf',
  csv: 'text/csv',
  json: 'application/json',
};

/** The type a stored file is kept with, from its (allow-listed) extension, never from the browser's word. */
export function mimeOf(name: string): string {
  return MIME[path.extname(name).slice(1).toLowerCase()] ?? 'application/octet-stream';
}
