// Stored secrets for the rotation tests: provider credentials and webhook secrets written
// straight to their tables, sealed under a given key, and a reader that opens every sealed
// column the application declares (SEALED_SECRETS), so a new kind of secret is checked as
// soon as it is in that list.
import { sql } from 'kysely'
import type { DB } from '../../src/db/database.js'
import { newId } from '../../src/db/ids.js'
import { SEALED_SECRETS } from '../../src/security/sealed-secrets.js'
import { SecretBox, SecretKeyError, type SealedWith } from '../../src/security/secret-box.js'
import { credentialContext } from '../../src/collection/credentials.js'
import { secretContext } from '../../src/webhooks/events.js'

export const OLD_KEY = 'old-secret-key-0123456789abcdefghijklmnopqrstuvwxyz'
export const NEW_KEY = 'new-secret-key-ZYXWVUTSRQPONMLKJIHGFEDCBA9876543210'
export const OTHER_KEY = 'some-other-key-never-configured-anywhere-0123456789'

/** `table:key=value,…`: how tests name one stored secret. */
export const secretId = (table: string, record: Record<string, string>) =>
  `${table}:${Object.entries(record)
    .map(([k, v]) => `${k}=${v}`)
    .join(',')}`

/**
 * Stores `count` provider credentials and `count` webhooks in the workspace, sealed under
 * `key`; returns each one's plaintext by secretId.
 */
export async function storeSecrets(db: DB, workspaceId: string, count: number, key: string, prefix = 'c'): Promise<Map<string, string>> {
  const box = SecretBox.fromSecretKey(key)
  const plain = new Map<string, string>()
  for (let start = 0; start < count; start += 1000) {
    const n = Math.min(1000, count - start)
    const credentials = Array.from({ length: n }, (_, i) => {
      const name = `${prefix}-${String(start + i).padStart(6, '0')}`
      const apiKey = `sk-test-${workspaceId.slice(0, 8)}-${name}-${newId().slice(-12)}`
      plain.set(secretId('collection_credential', { workspace_id: workspaceId, name }), apiKey)
      return { workspace_id: workspaceId, name, provider: 'openai', sealed: box.seal(apiKey, credentialContext(workspaceId, name)), last_four: apiKey.slice(-4) }
    })
    await db.insertInto('collection_credential').values(credentials).execute()
    const webhooks = Array.from({ length: n }, () => {
      const id = newId()
      const secret = `whsec_${Buffer.from(newId()).toString('base64')}`
      plain.set(secretId('webhook', { workspace_id: workspaceId, id }), secret)
      return {
        workspace_id: workspaceId,
        id,
        url: 'https://example.com/hook',
        events: ['collection.run.completed'],
        secret_sealed: box.seal(secret, secretContext(workspaceId, id)),
      }
    })
    await db.insertInto('webhook').values(webhooks).execute()
  }
  return plain
}

export interface OpenedSecret {
  plaintext?: string
  /** undefined: neither key opens it */
  sealedWith?: SealedWith
}

/** Every stored secret of every column in SEALED_SECRETS, opened with the keys given. */
export async function openStoredSecrets(db: DB, keys: { secretKey: string; secretKeyPrevious?: string }): Promise<Map<string, OpenedSecret>> {
  const box = SecretBox.fromKeys(keys)
  const opened = new Map<string, OpenedSecret>()
  for (const entry of SEALED_SECRETS) {
    const columns = sql.join(entry.keys.map((key) => sql`${sql.ref(key)}::text as ${sql.ref(key)}`))
    const { rows } = await sql<Record<string, string>>`select ${columns}, ${sql.ref(entry.column)} as sealed__ from ${sql.table(entry.table)}`.execute(db)
    for (const { sealed__, ...record } of rows) {
      try {
        const { plaintext, sealedWith } = box.unseal(sealed__, entry.context(record))
        opened.set(secretId(entry.table, record), { plaintext, sealedWith })
      } catch (error) {
        if (!(error instanceof SecretKeyError)) throw error
        opened.set(secretId(entry.table, record), {})
      }
    }
  }
  return opened
}

/** How many of the opened secrets each key opened, and how many neither did. */
export function countByKey(opened: Map<string, OpenedSecret>): { current: number; previous: number; unreadable: number } {
  const counts = { current: 0, previous: 0, unreadable: 0 }
  for (const secret of opened.values()) counts[secret.sealedWith ?? 'unreadable'] += 1
  return counts
}
