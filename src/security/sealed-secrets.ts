// Every column that holds a secret sealed with SecretBox, declared once. The start-up check,
// `beacon secrets rekey` and their tests all read this list, so a new kind of stored secret
// is one line here: its table, the columns naming one record, the sealed column and the
// context it is sealed under (docs/security.md, docs/agents-and-notifications.md).
//
// Rotation (BEACON_SECRET_KEY_PREVIOUS): every secret opens with the current or the previous
// key; rekey re-seals the previous key's ones under the current key, a batch per
// transaction, each row by compare-and-set on its old value. A kill at any moment leaves each
// row whole, under one key or the other, and running it again finishes the job.
import { sql } from 'kysely'
import type { DatabaseHandle, DB } from '../db/database.js'
import type { Database } from '../db/schema.js'
import { bypassesRowSecurity } from '../db/tenant-scope.js'
import { credentialContext } from '../collection/credentials.js'
import { secretContext } from '../webhooks/events.js'
import { channelTargetContext } from '../notifications/events.js'
import { SecretBox, SecretKeyError, type SecretKeys } from './secret-box.js'

type Columns<T extends keyof Database> = keyof Database[T] & string

export interface SealedColumn {
  /** what the secret is, in messages */
  kind: string
  table: keyof Database & string
  /** the columns naming one record: messages name a record by them, never by its secret */
  keys: readonly string[]
  /** the column holding `SecretBox.seal(...)` */
  column: string
  /** the context the secret is sealed under, from its record's key columns */
  context(record: Record<string, string>): string
}

/** Typed by the schema: a misspelt table or column does not compile. */
function sealed<T extends keyof Database & string, K extends Columns<T>>(entry: {
  kind: string
  table: T
  keys: readonly K[]
  column: Columns<T>
  context: (record: Record<K, string>) => string
}): SealedColumn {
  return entry as SealedColumn
}

export const SEALED_SECRETS: readonly SealedColumn[] = [
  sealed({
    kind: 'provider credential',
    table: 'collection_credential',
    keys: ['workspace_id', 'name'],
    column: 'sealed',
    context: (r) => credentialContext(r.workspace_id, r.name),
  }),
  sealed({ kind: 'webhook secret', table: 'webhook', keys: ['workspace_id', 'id'], column: 'secret_sealed', context: (r) => secretContext(r.workspace_id, r.id) }),
  sealed({
    kind: 'notification channel target',
    table: 'notification_channel',
    keys: ['workspace_id', 'id'],
    column: 'target_sealed',
    context: (r) => channelTargetContext(r.workspace_id, r.id),
  }),
]

/** A record whose secret opens with neither key: its kind, table and key columns (never the secret). */
export interface UnreadableSecret {
  kind: string
  table: string
  record: Record<string, string>
}

interface Row {
  record: Record<string, string>
  sealed: string
}

const BATCH = 200

/** Reads one sealed column in key order, a page at a time (keyset pagination: memory stays flat). */
async function* scan(db: DB, entry: SealedColumn, batch = BATCH): AsyncGenerator<Row[]> {
  const keys = sql.join(entry.keys.map((key) => sql.ref(key)))
  let after: string[] | undefined
  for (;;) {
    const { rows } = await sql<Record<string, string>>`
      select ${sql.join(entry.keys.map((key) => sql`${sql.ref(key)}::text as ${sql.ref(key)}`))}, ${sql.ref(entry.column)} as sealed__
      from ${sql.table(entry.table)}
      ${after ? sql`where (${keys}) > (${sql.join(after)})` : sql``}
      order by ${keys}
      limit ${batch}`.execute(db)
    if (rows.length === 0) return
    yield rows.map(({ sealed__, ...record }) => ({ record, sealed: sealed__ }))
    const last = rows[rows.length - 1]
    after = entry.keys.map((key) => last[key])
    if (rows.length < batch) return
  }
}

const describeRecord = (secret: UnreadableSecret) =>
  `${secret.kind} (${secret.table} ${Object.entries(secret.record)
    .map(([column, value]) => `${column}=${value}`)
    .join(', ')})`

/** Names the records (at most 10) for a message; the count says how many more. */
export function describeUnreadable(unreadable: UnreadableSecret[]): string {
  const named = unreadable.slice(0, 10).map(describeRecord).join('; ')
  return unreadable.length > 10 ? `${named}; and ${unreadable.length - 10} more` : named
}

/**
 * Whether this connection sees every workspace's rows: on PostgreSQL the tables force
 * row-level security, so only a superuser or a BYPASSRLS role reads them all.
 */
async function seesEveryWorkspace(database: DatabaseHandle): Promise<boolean> {
  return database.backend === 'pglite' || (await bypassesRowSecurity(database.db))
}

export interface SecretCheck {
  /** stored secrets, by kind */
  total: number
  /** of which sealed with BEACON_SECRET_KEY_PREVIOUS: `beacon secrets rekey` re-seals them */
  previous: number
  /** false when this database role cannot read every workspace's rows (nothing was checked) */
  checked: boolean
}

/**
 * At start-up: every stored secret must open with BEACON_SECRET_KEY or
 * BEACON_SECRET_KEY_PREVIOUS, or Beacon refuses to start, naming the records it cannot open
 * (collection and webhook deliveries would otherwise fail one by one, later).
 */
export async function checkStoredSecrets(database: DatabaseHandle, keys: SecretKeys): Promise<SecretCheck> {
  if (!(await seesEveryWorkspace(database))) return { total: 0, previous: 0, checked: false }
  let box: SecretBox | undefined
  let keyProblem: string | undefined
  try {
    box = SecretBox.fromKeys(keys)
  } catch (error) {
    keyProblem = error instanceof Error ? error.message : String(error)
  }
  const unreadable: UnreadableSecret[] = []
  let total = 0
  let previous = 0
  for (const entry of SEALED_SECRETS) {
    for await (const rows of scan(database.db, entry)) {
      for (const row of rows) {
        total += 1
        if (!box) {
          unreadable.push({ kind: entry.kind, table: entry.table, record: row.record })
          continue
        }
        try {
          if (box.unseal(row.sealed, entry.context(row.record)).sealedWith === 'previous') previous += 1
        } catch (error) {
          if (!(error instanceof SecretKeyError)) throw error
          unreadable.push({ kind: entry.kind, table: entry.table, record: row.record })
        }
      }
    }
  }
  if (keyProblem && total > 0)
    throw new SecretKeyError(
      `${total} secret(s) are stored encrypted, but ${keyProblem}. Start Beacon with the BEACON_SECRET_KEY they were stored with. Stored: ${describeUnreadable(unreadable)}.`,
    )
  if (unreadable.length > 0)
    throw new SecretKeyError(
      `${unreadable.length} of ${total} stored secret(s) open with neither BEACON_SECRET_KEY nor BEACON_SECRET_KEY_PREVIOUS: ${describeUnreadable(unreadable)}. ` +
        'Start Beacon with the key they were stored with (while rotating: the new key as BEACON_SECRET_KEY and the old one as BEACON_SECRET_KEY_PREVIOUS).',
    )
  return { total, previous, checked: true }
}

export interface RekeyProgress {
  /** rows looked at so far, over every sealed column */
  done: number
  total: number
}

export interface RekeyColumnResult {
  kind: string
  table: string
  column: string
  total: number
  /** re-sealed under the current key by this run */
  resealed: number
  /** already under the current key (an earlier or concurrent run, or written since the rotation) */
  already_current: number
  /** rewritten by someone else between this run's read and its write; left as they wrote it */
  changed_meanwhile: number
  unreadable: UnreadableSecret[]
}

export interface RekeyResult {
  columns: RekeyColumnResult[]
  resealed: number
  already_current: number
  changed_meanwhile: number
  unreadable: UnreadableSecret[]
}

/** How many sealed secrets are stored, for a progress bar. */
export async function countStoredSecrets(db: DB): Promise<number> {
  let total = 0
  for (const entry of SEALED_SECRETS) {
    const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.table(entry.table)}`.execute(db)
    total += Number(rows[0].n)
  }
  return total
}

/**
 * Re-seals every stored secret that opens only with BEACON_SECRET_KEY_PREVIOUS under
 * BEACON_SECRET_KEY. Idempotent: a secret the current key opens is left alone. Each batch is
 * one transaction and each row is written only if it still holds the value read, so a
 * secret stored or replaced meanwhile (sealed under the current key by a server) is never
 * overwritten with its old value, and two runs at once re-seal each secret once.
 */
export async function rekeyStoredSecrets(
  database: DatabaseHandle,
  keys: SecretKeys,
  options: { onProgress?: (progress: RekeyProgress) => void; batch?: number } = {},
): Promise<RekeyResult> {
  const box = SecretBox.fromKeys(keys)
  if (!(await seesEveryWorkspace(database)))
    throw new SecretKeyError(
      "beacon secrets rekey must read every workspace's secrets, and this database role is subject to row-level security: run it as a superuser or a role with BYPASSRLS (e.g. the one that runs migrations)",
    )
  const total = await countStoredSecrets(database.db)
  let done = 0
  options.onProgress?.({ done, total })
  const columns: RekeyColumnResult[] = []
  for (const entry of SEALED_SECRETS) {
    const result: RekeyColumnResult = {
      kind: entry.kind,
      table: entry.table,
      column: entry.column,
      total: 0,
      resealed: 0,
      already_current: 0,
      changed_meanwhile: 0,
      unreadable: [],
    }
    for await (const rows of scan(database.db, entry, options.batch)) {
      const writes: { row: Row; resealed: string }[] = []
      for (const row of rows) {
        result.total += 1
        const context = entry.context(row.record)
        try {
          const opened = box.unseal(row.sealed, context)
          if (opened.sealedWith === 'current') result.already_current += 1
          else writes.push({ row, resealed: box.seal(opened.plaintext, context) })
        } catch (error) {
          if (!(error instanceof SecretKeyError)) throw error
          result.unreadable.push({ kind: entry.kind, table: entry.table, record: row.record })
        }
      }
      if (writes.length > 0) {
        const written = await database.db.transaction().execute(async (trx) => {
          let count = 0
          for (const { row, resealed } of writes) {
            // Parameters take the column's type (uuid, text), so the primary key finds the row.
            const matches = entry.keys.map((key) => sql`${sql.ref(key)} = ${row.record[key]}`)
            const update = await sql`update ${sql.table(entry.table)} set ${sql.ref(entry.column)} = ${resealed}
              where ${sql.join(matches, sql` and `)} and ${sql.ref(entry.column)} = ${row.sealed}`.execute(trx)
            count += Number(update.numAffectedRows ?? 0)
          }
          return count
        })
        result.resealed += written
        result.changed_meanwhile += writes.length - written
      }
      done += rows.length
      // Secrets stored while it runs may take done past the first count.
      options.onProgress?.({ done, total: Math.max(done, total) })
    }
    columns.push(result)
  }
  const sum = (pick: (c: RekeyColumnResult) => number) => columns.reduce((n, c) => n + pick(c), 0)
  return {
    columns,
    resealed: sum((c) => c.resealed),
    already_current: sum((c) => c.already_current),
    changed_meanwhile: sum((c) => c.changed_meanwhile),
    unreadable: columns.flatMap((c) => c.unreadable),
  }
}
