// SQL pieces the export definitions share: UTC formatting, keyset conditions and the CSV
// byte arithmetic behind statistics.estimated_size_mb. Values are always bound.
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely'
import type { ExportColumn } from './export-types.js'

/** ISO 8601 UTC with milliseconds, as the JSON endpoints write datetimes. */
export const isoDateTime = (column: Expression<unknown> | RawBuilder<unknown>) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/** The UTC day of a timestamp; never the session time zone. */
export const utcDay = (column: Expression<unknown> | RawBuilder<unknown>) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`

/**
 * Rows strictly after `values` in the order of `keys` (lexicographic), spelled out so each
 * key keeps its own collation and the leading key still bounds an index range scan.
 */
export function keysetAfter(keys: readonly RawBuilder<unknown>[], values: readonly unknown[]): RawBuilder<SqlBool> {
  const branches = keys.map((key, i) => {
    const equal = keys.slice(0, i).map((k, j) => sql`${k} = ${values[j]}`)
    return sql.join([...equal, sql`${key} > ${values[i]}`], sql` and `)
  })
  return sql<SqlBool>`(${keys[0]} >= ${values[0]} and ((${sql.join(branches, sql`) or (`)})))`
}

// The writer's rules in SQL: a leading = + - @ tab CR gets a ' (formula neutralization);
// a cell holding a quote, comma, CR or LF is quoted and its quotes doubled.
const FORMULA_START = '^[-=+@\t\r]'
const NEEDS_QUOTES = '[",\r\n]'

/** Bytes of a text cell as the CSV writer writes it (0 for null). */
export function csvTextBytes(value: RawBuilder<unknown>): RawBuilder<number> {
  return sql<number>`coalesce(
    octet_length(${value})
    + case when ${value} ~ ${FORMULA_START} then 1 else 0 end
    + case when ${value} ~ ${NEEDS_QUOTES} then 2 + length(${value}) - length(replace(${value}, '"', '')) else 0 end,
    0)`
}

/** Bytes of a number rounded to `decimals` and written without trailing zeros (0 for null). */
export function numberBytes(value: RawBuilder<unknown>, decimals: number): RawBuilder<number> {
  return sql<number>`coalesce(length(trim_scale(round((${value})::numeric, ${sql.lit(decimals)}))::text), 0)`
}

/** Decimals of each docs/metrics.md rounding, for size estimates in SQL. */
export const ROUNDING_DECIMALS = { score: 2, sentiment: 3, position: 2 } as const

/**
 * Bytes of one CSV record of `columns` read from `alias` (cells, delimiters, CRLF). Json
 * columns are not handled here; the definition that has one estimates it itself.
 */
export function csvRecordBytes(columns: readonly ExportColumn[], alias: string): RawBuilder<number> {
  const cells = columns.map((column) => {
    const ref = sql.ref(`${alias}.${column.name}`)
    switch (column.type) {
      case 'string':
        return csvTextBytes(ref)
      case 'float':
        return numberBytes(ref, ROUNDING_DECIMALS[column.rounding ?? 'score'])
      case 'integer':
        return sql<number>`coalesce(length((${ref})::text), 0)`
      case 'uuid':
        return sql<number>`case when ${ref} is null then 0 else 36 end`
      case 'date':
        return sql<number>`case when ${ref} is null then 0 else 10 end`
      case 'datetime':
        return sql<number>`case when ${ref} is null then 0 else 24 end`
      case 'json':
        throw new Error(`csvRecordBytes cannot size json column ${column.name}`)
    }
  })
  return sql<number>`(${sql.join(cells, sql` + `)} + ${sql.lit(columns.length - 1 + 2)})`
}
