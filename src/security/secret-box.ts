// Secrets Beacon must use later in plain form (provider API keys, webhook signing secrets)
// are stored encrypted with AES-256-GCM under BEACON_SECRET_KEY (DESIGN §14, §16). The key
// is never stored: a wrong or missing key is found by failing to open a stored secret.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'

const VERSION = 'v1'
const IV_BYTES = 12
const TAG_BYTES = 16
/** Shorter secrets are too easy to guess; `openssl rand -base64 32` gives 44 characters. */
export const MIN_SECRET_KEY_LENGTH = 32

export class SecretKeyError extends Error {}

/** Encrypts and decrypts short secrets; `context` binds a ciphertext to its use (e.g. `credential:<workspace>:<name>`). */
export class SecretBox {
  readonly #key: Buffer

  private constructor(key: Buffer) {
    this.#key = key
  }

  /** From BEACON_SECRET_KEY: any string of at least 32 characters, stretched to 256 bits with HKDF-SHA256. */
  static fromSecretKey(secretKey: string | undefined): SecretBox {
    const secret = secretKey?.trim() ?? ''
    if (!secret) throw new SecretKeyError('BEACON_SECRET_KEY is not set: set it to a random string of at least 32 characters (e.g. `openssl rand -base64 32`) to store secrets')
    if (secret.length < MIN_SECRET_KEY_LENGTH)
      throw new SecretKeyError(`BEACON_SECRET_KEY is too short (${secret.length} characters): use at least ${MIN_SECRET_KEY_LENGTH}, e.g. \`openssl rand -base64 32\``)
    return new SecretBox(Buffer.from(hkdfSync('sha256', secret, 'beacon-secret-box', 'aes-256-gcm v1', 32)))
  }

  /** `v1.<iv>.<tag>.<ciphertext>`, base64url parts: text, so it fits any column and export. */
  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES)
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv, { authTagLength: TAG_BYTES })
    cipher.setAAD(Buffer.from(context, 'utf8'))
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
    return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.')
  }

  /** Throws SecretKeyError when the key (or the context) is not the one the secret was sealed with. */
  open(sealed: string, context: string): string {
    const [version, iv, tag, body] = sealed.split('.')
    if (version !== VERSION || iv === undefined || tag === undefined || body === undefined) throw new SecretKeyError('The stored secret is not in a format this Beacon can read')
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES })
      decipher.setAAD(Buffer.from(context, 'utf8'))
      decipher.setAuthTag(Buffer.from(tag, 'base64url'))
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8')
    } catch {
      throw new SecretKeyError('A stored secret cannot be decrypted: BEACON_SECRET_KEY is not the key it was stored with. Start Beacon with the original key.')
    }
  }
}

/** What may be shown of a secret after it is stored: its last 4 characters. */
export const lastFour = (secret: string): string => secret.slice(-4)
