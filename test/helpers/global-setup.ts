// Runs once before any test file: with TEST_DATABASE_URL set, the database it names must
// exist (created here if not) and answer, or the run stops with one clear message instead
// of every PostgreSQL suite failing on its own.
import { ensureTestDatabase } from './test-database.js'

export default async function setup(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL
  if (url) await ensureTestDatabase(url)
}
