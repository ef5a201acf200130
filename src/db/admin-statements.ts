// Statements a pool opened on one schema cannot run for its caller: creating or dropping
// a schema (or a database) around a test suite or a benchmark run. Each call has a client
// of its own, so nothing is left holding a connection to what it drops.
import pg from 'pg'

/** Connects a new client to `connectionString`, runs the statements in order and ends the client, also when one fails. */
export async function runAdminStatements(connectionString: string, ...statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString })
  await client.connect()
  try {
    for (const statement of statements) await client.query(statement)
  } finally {
    await client.end()
  }
}
