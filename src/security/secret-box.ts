// Secrets Beacon must use later in plain form (provider API keys, webhook signing secrets)
// are stored encrypted with AES-256-GCM under BEACON_SECRET_KEY (docs/collection.md, docs/agents-and-notifications.md). The key
// is never stored: a wrong or missing key is found by failing to open a stored secret.
// During a key rotation BEACON_SECRET_KEY_PREVIOUS opens what the old key sealed; new
// secrets are always sealed under the current key (docs/security.md, `beacon secrets rekey`).
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'

const VERSION = 'v1'
const IV_BYTES = 12
const TAG_BYTES = 16
/** Shorter secrets are too easy to guess; `openssl rand -base64 32` gives 44 characters. */
export const MIN_SECRET_KEY_LENGTH = 32

export class SecretKeyError extends Error {}

/** Which key opened a secret: the current one, or BEACON_SECRET_KEY_PREVIOUS (it still needs re-sealing). */
export type SealedWith = 'current' | 'previous'

/** The two settings a SecretBox is made from (Config's secretKey and secretKeyPrevious). */
export interface SecretKeys {
  secretKey: string | undefined
  secretKeyPrevious?: string | undefined
}

function deriveKey(variable: string, secretKey: string | undefined): Buffer {
  const secret = secretKey?.trim() ?? ''
  if (!secret) throw new SecretKeyError(`${variable} is not set: set it to a random string of at least 32 characters (e.g. \`openssl rand -base64 32\`) to store secrets`)
  if (secret.length < MIN_SECRET_KEY_LENGTH)
    throw new SecretKeyError(`${variable} is too short (${secret.length} characters): use at least ${MIN_SECRET_KEY_LENGTH}, e.g. \`openssl rand -base64 32\``)
  return Buffer.from(hkdfSync('sha256', secret, 'beacon-secret-box', 'aes-256-gcm v1', 32))
}

/** Encrypts and decrypts short secrets; `context` binds a ciphertext to its use (e.g. `credential:<workspace>:<name>`). */
export class SecretBox {
  readonly #key: Buffer
  readonly #previous: Buffer | undefined

  private constructor(key: Buffer, previous: Buffer | undefined) {
    this.#key = key
    this.#previous = previous
  }

  /**
   * From BEACON_SECRET_KEY (and BEACON_SECRET_KEY_PREVIOUS during a rotation): any string of
   * at least 32 characters, stretched to 256 bits with HKDF-SHA256.
   */
  static fromSecretKey(secretKey: string | undefined, previousKey?: string | undefined): SecretBox {
    const key = deriveKey('BEACON_SECRET_KEY', secretKey)
    const previous = previousKey?.trim() ? deriveKey('BEACON_SECRET_KEY_PREVIOUS', previousKey) : undefined
    return new SecretBox(key, previous?.equals(key) ? undefined : previous)
  }

  static fromKeys(keys: SecretKeys): SecretBox {
    return SecretBox.fromSecretKey(keys.secretKey, keys.secretKeyPrevious)
  }

  /** Whether BEACON_SECRET_KEY_PREVIOUS is set (and differs from the current key). */
  get hasPrevious(): boolean {
    return this.#previous !== undefined
  }

  /** `v1.<iv>.<tag>.<ciphertext>`, base64url parts: text, so it fits any column and export. */
  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES)
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv, { authTagLength: TAG_BYTES })
    cipher.setAAD(Buffer.from(context, 'utf8'))
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
    return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.')
  }

  /** Throws SecretKeyError when neither key (or not the context) is the one the secret was sealed with. */
  open(sealed: string, context: string): string {
    return this.unseal(sealed, context).plaintext
  }

  /** Like open, and says which key opened it: a secret opened by the previous key is one `beacon secrets rekey` re-seals. */
  unseal(sealed: string, context: string): { plaintext: string; sealedWith: SealedWith } {
    const [version, iv, tag, body] = sealed.split('.')
    if (version !== VERSION || iv === undefined || tag === undefined || body === undefined) throw new SecretKeyError('The stored secret is not in a format this Beacon can read')
    const attempt = (key: Buffer): string | undefined => {
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES })
        decipher.setAAD(Buffer.from(context, 'utf8'))
        decipher.setAuthTag(Buffer.from(tag, 'base64url'))
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8')
      } catch {
        return undefined
      }
    }
    const current = attempt(this.#key)
    if (current !== undefined) return { plaintext: current, sealedWith: 'current' }
    const previous = this.#previous ? attempt(this.#previous) : undefined
    if (previous !== undefined) return { plaintext: previous, sealedWith: 'previous' }
    throw new SecretKeyError(
      this.#previous
        ? 'A stored secret cannot be decrypted: neither BEACON_SECRET_KEY nor BEACON_SECRET_KEY_PREVIOUS is the key it was stored with. Start Beacon with the key it was stored with.'
        : 'A stored secret cannot be decrypted: BEACON_SECRET_KEY is not the key it was stored with. Start Beacon with the original key (or, while rotating, with the old one as BEACON_SECRET_KEY_PREVIOUS).',
    )
  }
}

/** What may be shown of a secret after it is stored: its last 4 characters. */
export const lastFour = (secret: string): string => secret.slice(-4)
