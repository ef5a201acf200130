// TEST_DATABASE_URL's database, created on first use so the README's test command works on
// a fresh machine.
import pg from 'pg'

/** TEST_DATABASE_URL, which a suite on the PostgreSQL backend cannot run without. */
export function testDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL
  if (!url) throw new Error('TEST_DATABASE_URL is not set; set it (postgres://user@host:5432/dbname) to run the PostgreSQL backend')
  return url
}

/**
 * Makes sure the database named in a PostgreSQL URL exists, creating it through the server's
 * `postgres` database when it does not, so the README's test command works on a fresh
 * machine. Parallel test files may race to create it: "already exists" is success.
 */
export async function ensureTestDatabase(url: string): Promise<void> {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new Error(`TEST_DATABASE_URL is not a valid URL; use postgres://user@host:5432/dbname`)
  }
  const name = decodeURIComponent(parsed.pathname.slice(1))
  if (!name) throw new Error(`TEST_DATABASE_URL names no database; use postgres://user@host:5432/dbname`)
  const where = `${parsed.hostname}:${parsed.port || 5432}`
  const attempt = async (connectionString: string, statement?: string) => {
    const client = new pg.Client({ connectionString })
    try {
      await client.connect()
      if (statement) await client.query(statement)
    } finally {
      await client.end().catch(() => undefined)
    }
  }
  try {
    await attempt(url)
    return
  } catch (error) {
    if (pgCode(error) !== '3D000') throw unreachable(where, error)
  }
  const admin = new URL(parsed)
  admin.pathname = '/postgres'
  try {
    await attempt(admin.toString(), `create database "${name.replaceAll('"', '""')}"`)
  } catch (error) {
    // 42P04 duplicate_database; 23505 when two sessions insert the same pg_database row at once.
    const code = pgCode(error)
    if (code === '42P04' || code === '23505') return
    throw new Error(
      `TEST_DATABASE_URL: database "${name}" does not exist on ${where} and could not be created (${errorText(error)}). Create it (createdb ${name}) or use a user that may.`,
      {
        cause: error,
      },
    )
  }
}

const pgCode = (error: unknown): string | undefined => (error && typeof error === 'object' && 'code' in error ? String(error.code) : undefined)
const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error)) || String(pgCode(error))
const unreachable = (where: string, error: unknown) =>
  new Error(`TEST_DATABASE_URL: cannot use PostgreSQL at ${where} (${errorText(error)}). Start it, fix the URL, or unset TEST_DATABASE_URL to test on PGlite only.`, {
    cause: error,
  })
