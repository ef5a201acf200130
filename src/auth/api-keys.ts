// Key format (docs/security.md): `bvk_` + 30 random base62 chars + 6-char base62 CRC32 of those
// 30 chars. The checksum lets us reject typos and garbage without touching the database
// and lets secret scanners recognise leaked keys. Only a SHA-256 hash is stored.
import { createHash, randomInt } from 'node:crypto'
import { crc32 } from 'node:zlib'

export const KEY_PREFIX = 'bvk_'
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const RANDOM_LENGTH = 30
const CHECKSUM_LENGTH = 6
export const KEY_LENGTH = KEY_PREFIX.length + RANDOM_LENGTH + CHECKSUM_LENGTH
const KEY_SHAPE = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`)

function toBase62(value: number, width: number): string {
  let out = ''
  let rest = value
  while (rest > 0) {
    out = BASE62[rest % 62] + out
    rest = Math.floor(rest / 62)
  }
  return out.padStart(width, '0')
}

export function keyChecksum(randomPart: string): string {
  // 62^6 > 2^32, so every CRC32 fits in six base62 digits.
  return toBase62(crc32(randomPart) >>> 0, CHECKSUM_LENGTH)
}

export function generateApiKey(): string {
  let randomPart = ''
  for (let i = 0; i < RANDOM_LENGTH; i++) randomPart += BASE62[randomInt(62)]
  return KEY_PREFIX + randomPart + keyChecksum(randomPart)
}

/** Shape and checksum only: true means "worth looking up", not "valid". */
export function isWellFormedApiKey(key: string): boolean {
  if (key.length !== KEY_LENGTH || !KEY_SHAPE.test(key)) return false
  const randomPart = key.slice(KEY_PREFIX.length, KEY_PREFIX.length + RANDOM_LENGTH)
  return keyChecksum(randomPart) === key.slice(KEY_PREFIX.length + RANDOM_LENGTH)
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex')
}

/** What lists show: enough to recognise a key, too little to use it. */
export function displayPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + 6)
}
