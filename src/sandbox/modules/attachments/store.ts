/**
 * Where the sandbox keeps attachment files: `<data dir>/attachments/<attachment_id>` (directory 0700, files 0600),
 * or in memory for a ':memory:' store. An upload is written to a temporary file while it streams and renamed
 * into place only once it is whole and within the limit; a refused one leaves nothing behind.
 */
import { createReadStream, existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { Db } from '../../../node/db';
import { dataDirOf } from '../secrets/store';

const memoryFiles = new WeakMap<Db, Map<string, Buffer>>();

/** Attachment ids are UUIDs: nothing else ever becomes a file name. */
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function filesOf(db: Db): Map<string, Buffer> {
  let files = memoryFiles.get(db);
  if (!files) memoryFiles.set(db, (files = new Map()));
  return files;
}

function dirOf(db: Db): string | null {
  const data = dataDirOf(db);
  if (data === null) return null;
  const dir = join(data, 'attachments');
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

function checkId(id: string): void {
  if (!ID.test(id)) throw new Error(`not an attachment id: ${id}`);
}

/** A file being written: bytes go in as they arrive; `commit` makes it the attachment, `discard` drops it. */
export interface PendingFile {
  write(chunk: Uint8Array): Promise<void> | void;
  commit(): Promise<void>;
  discard(): Promise<void>;
}

export async function beginFile(db: Db, id: string): Promise<PendingFile> {
  checkId(id);
  const dir = dirOf(db);
  if (dir === null) {
    const chunks: Buffer[] = [];
    return {
      write: (chunk) => void chunks.push(Buffer.from(chunk)),
      commit: async () => void filesOf(db).set(id, Buffer.concat(chunks)),
      discard: async () => void (chunks.length = 0),
    };
  }
  const tmp = join(dir, `${id}.part`);
  const handle: FileHandle = await open(tmp, 'wx', 0o600);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await handle.close();
  };
  return {
    write: async (chunk) => {
      await handle.write(chunk);
    },
    commit: async () => {
      await close();
      renameSync(tmp, join(dir, id));
    },
    discard: async () => {
      await close().catch(() => undefined);
      rmSync(tmp, { force: true });
    },
  };
}

/** Writes a whole file at once (the seed). */
export function putFile(db: Db, id: string, bytes: Buffer): void {
  checkId(id);
  const dir = dirOf(db);
  if (dir === null) filesOf(db).set(id, bytes);
  else writeFileSync(join(dir, id), bytes, { mode: 0o600 });
}

/** The stored bytes as a web stream with their length, or null when the file is gone. */
export function readFile(db: Db, id: string): { body: ReadableStream<Uint8Array> | Uint8Array; size: number } | null {
  checkId(id);
  const dir = dirOf(db);
  if (dir === null) {
    const bytes = filesOf(db).get(id);
    return bytes ? { body: new Uint8Array(bytes), size: bytes.length } : null;
  }
  const path = join(dir, id);
  if (!existsSync(path)) return null;
  const size = statSync(path).size;
  return { body: Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>, size };
}
