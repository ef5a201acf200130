// pg-boss's worker does not await the statements that mark a job completed or failed; with
// the database gone their rejection would be unhandled and end the process. Only those two
// statements are made to report "no row changed"; every other error still reaches its caller.
import { describe, expect, it } from 'vitest'
import { createRequire } from 'node:module'
import type PgBoss from 'pg-boss'
import { tolerateUnawaitedCompletion } from '../../src/jobs/job-runtime.js'

const plans = createRequire(import.meta.url)('pg-boss/src/plans.js') as { completeJobs(schema: string): string; failJobsById(schema: string): string }

describe('tolerateUnawaitedCompletion', () => {
  it('turns a failed complete or fail into "no row changed", and nothing else', async () => {
    const down = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
    const db = { executeSql: (_text: string, _values: unknown[]): Promise<{ rows: unknown[] }> => Promise.reject(down) }
    const warnings: string[] = []
    const boss = { getDb: () => db } as unknown as PgBoss
    tolerateUnawaitedCompletion(boss, 'jobs_x', { warn: (_obj, msg) => warnings.push(msg), error: () => {} })
    await expect(db.executeSql(plans.completeJobs('jobs_x'), [])).resolves.toEqual({ rows: [{ count: '0' }] })
    await expect(db.executeSql(plans.failJobsById('jobs_x'), [])).resolves.toEqual({ rows: [{ count: '0' }] })
    expect(warnings).toHaveLength(2)
    // Another schema's statement, or any other statement, still fails.
    await expect(db.executeSql(plans.completeJobs('other'), [])).rejects.toThrow('ECONNREFUSED')
    await expect(db.executeSql('select 1', [])).rejects.toThrow('ECONNREFUSED')
  })
})
