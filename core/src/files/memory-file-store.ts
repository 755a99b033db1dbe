import { collectBytes, type FileKind, type FileStore, type StoredFile } from './file-store';

/** A FileStore in memory: for unit tests of the services that store uploads. */
export class MemoryFileStore implements FileStore {
  readonly files = new Map<string, StoredFile>();

  async put(kind: FileKind, name: string, data: Buffer | AsyncIterable<Uint8Array>, mimetype: string): Promise<void> {
    const bytes = await collectBytes(data);
    this.files.set(`${kind}/${name}`, { bytes, mimetype, size: bytes.length, createdAt: new Date() });
  }

  async get(kind: FileKind, name: string): Promise<StoredFile | null> {
    return this.files.get(`${kind}/${name}`) ?? null;
  }

  async has(kind: FileKind, name: string): Promise<boolean> {
    return this.files.has(`${kind}/${name}`);
  }

  async remove(kind: FileKind, name: string): Promise<void> {
    this.files.delete(`${kind}/${name}`);
  }
}
