// Several independent selects as one statement. On PostgreSQL a request's queries share
// one connection, so every statement is a round trip plus a parse and a plan of its own:
// a detail view made of six small selects paid for six. Each select here becomes one JSON
// array column of a single row.
//
// Rows travel as JSON, so only plain values fit: text, numbers (sums arrive as numbers,
// not the strings pg gives for numeric), booleans, arrays. Timestamps would arrive as
// strings and must not be selected through here. A select with ORDER BY keeps its order:
// json_agg reads the sorted subquery as it comes.
import { sql, type Expression } from 'kysely'
import type { DB } from '../db/database.js'
import { prepared } from '../db/prepared-statements.js'

export async function selectTogether<Rows extends Record<string, unknown>>(
  db: DB,
  selects: { [Name in keyof Rows]: Expression<Rows[Name]> },
  /** Prepare the statement once per connection (src/db/prepared-statements.ts): only when its best plan does not depend on the values bound. */
  options: { prepare?: boolean } = {},
): Promise<{ [Name in keyof Rows]: Rows[Name][] }> {
  const columns = Object.entries(selects).map(([name, select]) => sql`(select coalesce(json_agg(q), '[]'::json) from (${select}) q) as ${sql.ref(name)}`)
  const statement = sql<{ [Name in keyof Rows]: Rows[Name][] }>`select ${sql.join(columns)}`
  const { rows } = await (options.prepare ? prepared(statement) : statement).execute(db)
  return rows[0]
}
