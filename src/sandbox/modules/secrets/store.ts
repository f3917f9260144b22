/**
 * Secrets at rest: each value is encrypted with AES-256-GCM under a key the sandbox keeps in its data directory
 * (`sandbox-secrets.key`, 0600, made on first use) — or in memory for a ':memory:' store — with the secret's id as
 * associated data, so a ciphertext cannot be moved to another row. No operation decrypts a value: the sandbox
 * never returns one. `openSecretValue` exists for the tests that prove what is stored is the value, encrypted.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Db } from '../../../node/db';

export const SECRETS_KEY_FILE = 'sandbox-secrets.key';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

const memoryKeys = new WeakMap<Db, Buffer>();

/** The data directory of a store, or null for ':memory:'. */
export function dataDirOf(db: Db): string | null {
  return db.memory || db.name === ':memory:' || db.name === '' ? null : dirname(db.name);
}

/** The store's secrets key: read from the data directory (made there, 0600, the first time), or kept in memory. */
export function secretsKey(db: Db): Buffer {
  const cached = memoryKeys.get(db);
  if (cached) return cached;
  const dir = dataDirOf(db);
  let key: Buffer;
  if (dir === null) {
    key = randomBytes(KEY_BYTES);
  } else {
    const file = join(dir, SECRETS_KEY_FILE);
    if (existsSync(file)) {
      key = readFileSync(file);
      if (key.length !== KEY_BYTES) throw new Error(`${file} is not a ${KEY_BYTES}-byte key; delete it to reseed`);
    } else {
      if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
      key = randomBytes(KEY_BYTES);
      writeFileSync(file, key, { mode: 0o600, flag: 'wx' });
      chmodSync(file, 0o600);
    }
  }
  memoryKeys.set(db, key);
  return key;
}

/** iv ‖ tag ‖ ciphertext. */
export function sealSecretValue(db: Db, secretId: string, value: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', secretsKey(db), iv);
  cipher.setAAD(Buffer.from(secretId));
  const ct = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ct]);
}

/** Tests only: the value a sealed blob holds (throws when it was not sealed for this id with this key). */
export function openSecretValue(db: Db, secretId: string, sealed: Buffer): string {
  const decipher = createDecipheriv('aes-256-gcm', secretsKey(db), sealed.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(secretId));
  decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}
