// Collection from the command line (docs/collection.md): targets, a run with a progress bar that
// waits for the end, and the list of runs. `beacon collect` runs the answers in this
// process (its own job worker, stopped when the run ends), or, with --server and --key,
// asks a running Beacon to do it (needed when a server holds the embedded database).
import type { Command } from 'commander'
import type { DB } from '../../db/database.js'
import { AppError } from '../../core/errors.js'
import type { TargetInput } from '../../collection/targets.js'
import { answersCounted, type RunView } from '../../collection/run-view.js'
import { requireWorkspace, withDatabase } from '../context.js'
import { createOutput, table, UsageError, type Output } from '../output.js'
import { progressBar } from '../progress-bar.js'

// The collection, job and query modules are imported inside the actions, when a command
// runs, so `beacon --help` does not load them.

const collect = (value: string, previous: string[]) => [...previous, value]
const FINISHED = new Set(['succeeded', 'failed', 'cancelled'])
const POLL_MS = 500

/** The run did not succeed: its summary is printed, the exit code is 1. */
export class RunFailed extends Error {}

function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`${flag} must be one of ${allowed.join(', ')}; got "${value}"`)
  return value as T
}

function integerOption(flag: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) throw new UsageError(`${flag} must be a whole number from ${min} to ${max}`)
  return Number(value)
}

function runLines(run: RunView): string[] {
  const notAnswered = run.refused + run.incomplete + run.search_failed + run.quota_exhausted
  const counts = `${run.succeeded} stored, ${run.duplicates} duplicates, ${run.failed} failed, ${run.skipped} skipped, ${notAnswered} not answered of ${run.planned}`
  return [
    `Run ${run.id}: ${run.state} (${counts})`,
    `tokens ${run.tokens_in} in / ${run.tokens_out} out, cost $${run.cost_usd.toFixed(4)}`,
    ...run.errors.map((e) => `  ${e.count} × ${e.code} (target ${e.target_id}): ${e.message}`),
  ]
}

/** Follows a run until it ends, with a progress bar over its planned answers. */
async function follow(read: () => Promise<RunView>, out: Output): Promise<RunView> {
  let bar: ReturnType<typeof progressBar> | undefined
  try {
    for (;;) {
      const run = await read()
      if (run.planned > 0) {
        bar ??= progressBar(out, run.planned, 'answers')
        bar.update(answersCounted(run))
      }
      if (FINISHED.has(run.state) && (run.state !== 'cancelled' || run.planned <= answersCounted(run))) return run
      await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    }
  } finally {
    bar?.stop()
  }
}

function finish(out: Output, run: RunView): void {
  out.result(run, runLines(run))
  if (run.state !== 'succeeded') throw new RunFailed(`run ${run.id} ended ${run.state}${run.errors[0] ? `: ${run.errors[0].code}: ${run.errors[0].message}` : ''}`)
}

async function remoteCollect(server: string, key: string, body: { target_ids?: string[]; prompt_ids?: string[] }, out: Output): Promise<void> {
  const base = server.replace(/\/$/, '')
  const call = async (method: string, path: string, payload?: unknown): Promise<RunView> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: payload === undefined ? undefined : JSON.stringify(payload),
    })
    const json = (await response.json()) as { success: boolean; data: RunView; error?: { code: string; message: string } }
    if (!json.success) throw new UsageError(`${base} answered ${response.status}: ${json.error?.message ?? 'no details'}`)
    return json.data
  }
  const started = await call('POST', '/api/v1/collection/runs', body)
  out.info(`Run ${started.id} started on ${base}`)
  finish(out, await follow(() => call('GET', `/api/v1/collection/runs/${started.id}`), out))
}

export function registerCollectCommands(program: Command): void {
  const target = program.command('target').description('manage collection targets (what Beacon asks, and when)')

  target
    .command('add')
    .description('add an answer target (--provider, --model) or an AI-overview target (--kind aio --serp)')
    .requiredOption('--workspace <id-or-name>', 'workspace id or name')
    .option('--kind <kind>', 'answer (default) or aio')
    .option('--provider <provider>', 'openai, anthropic, google or perplexity')
    .option('--model <model>', 'model to ask, e.g. gpt-4o-mini')
    .option('--api <api>', 'native (default), openai_compatible or demo')
    .option('--base-url <url>', 'openai_compatible: the API base, e.g. http://127.0.0.1:11434/v1')
    .option('--web-search', 'let the engine search the web')
    .option('--serp <serp>', 'aio: serpapi or dataforseo')
    .option('--locale <locale>', 'aio: e.g. en-US')
    .option('--samples <n>', 'answers per prompt and run, 1-10')
    .option('--schedule <cron>', 'cron expression (default "0 6 * * *")')
    .option('--timezone <tz>', 'IANA time zone of the schedule (default UTC)')
    .option('--credential <name>', 'a stored credential (PUT /api/v1/collection/credentials/{name})')
    .option('--disabled', 'add it disabled (not scheduled)')
    .option('--json', 'machine-readable output')
    .action(
      async (options: {
        workspace: string
        kind?: string
        provider?: string
        model?: string
        api?: string
        baseUrl?: string
        webSearch?: boolean
        serp?: string
        locale?: string
        samples?: string
        schedule?: string
        timezone?: string
        credential?: string
        disabled?: boolean
        json?: boolean
      }) => {
        const out = createOutput(Boolean(options.json))
        const input: TargetInput = {
          kind: oneOf('--kind', options.kind, ['answer', 'aio'] as const),
          provider: oneOf('--provider', options.provider, ['openai', 'anthropic', 'google', 'perplexity'] as const),
          model: options.model,
          api: oneOf('--api', options.api, ['native', 'openai_compatible', 'demo'] as const),
          base_url: options.baseUrl,
          web_search: options.webSearch,
          serp: oneOf('--serp', options.serp, ['serpapi', 'dataforseo'] as const),
          locale: options.locale,
          samples: integerOption('--samples', options.samples, 1, 10),
          schedule: options.schedule,
          timezone: options.timezone,
          credential: options.credential,
          enabled: options.disabled ? false : undefined,
        }
        const { createTarget } = await import('../../collection/targets.js')
        const created = await withDatabase(async (database, config) => {
          const workspace = await requireWorkspace(database, options.workspace)
          return createTarget(database.db, workspace.id, Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)), new Date(), {
            minIntervalMinutes: config.collectionMinIntervalMinutes,
          })
        })
        out.result(created, [
          `Added target ${created.id}: ${created.kind === 'aio' ? `AI overview via ${created.serp} (${created.locale})` : `${created.provider}/${created.model} (${created.api})`}`,
          `schedule "${created.schedule}" ${created.timezone}${created.next_run_at ? `, next run ${created.next_run_at.toISOString()}` : ''}`,
        ])
      },
    )

  target
    .command('list')
    .description("list a workspace's collection targets")
    .requiredOption('--workspace <id-or-name>', 'workspace id or name')
    .option('--json', 'machine-readable output')
    .action(async (options: { workspace: string; json?: boolean }) => {
      const out = createOutput(Boolean(options.json))
      const [{ listTargets }, { targetView }] = await Promise.all([import('../../queries/collection/list-targets.js'), import('../../collection/targets.js')])
      const targets = await withDatabase(async (database) => {
        const workspace = await requireWorkspace(database, options.workspace)
        return (await listTargets(database.db, workspace.id)).map((row) => targetView(row))
      })
      out.result(
        targets,
        table(
          targets.map((t) => ({ ...t, what: t.kind === 'aio' ? `aio:${t.serp}` : `${t.provider}/${t.model}`, flagged: t.flagged ? t.flag_reason : '' })),
          ['id', 'what', 'api', 'samples', 'schedule', 'timezone', 'enabled', 'flagged'],
        ),
      )
    })

  target
    .command('remove')
    .description('delete a collection target (its stored answers stay)')
    .requiredOption('--workspace <id-or-name>', 'workspace id or name')
    .argument('<id>', 'target id (see "beacon target list")')
    .option('--json', 'machine-readable output')
    .action(async (id: string, options: { workspace: string; json?: boolean }) => {
      const out = createOutput(Boolean(options.json))
      if (!/^[0-9a-f-]{36}$/i.test(id)) throw new UsageError(`"${id}" is not a target id; see "beacon target list"`)
      const { deleteTarget } = await import('../../collection/targets.js')
      const removed = await withDatabase(async (database) => {
        const workspace = await requireWorkspace(database, options.workspace)
        return deleteTarget(database.db, workspace.id, id.toLowerCase())
      })
      if (!removed) throw new UsageError(`No target ${id} in this workspace; see "beacon target list"`)
      out.result({ id, deleted: true }, `Removed target ${id}`)
    })

  program
    .command('collect')
    .description('ask the targets now: one answer per prompt × target × sample, with a progress bar; waits for the run (exit 1 unless it succeeds)')
    .option('--workspace <id-or-name>', 'workspace id or name (in-process run)')
    .option('--target <id>', 'only this target (repeatable; default: every enabled target)', collect, [])
    .option('--prompt <id>', 'only this prompt (repeatable; default: every active prompt)', collect, [])
    .option('--server <url>', 'ask a running Beacon to run it (BEACON_URL), e.g. while `npm start` holds the embedded database')
    .option('--key <key>', 'an API key with write:data and read:analytics for --server (BEACON_API_KEY)')
    .option('--json', 'machine-readable output')
    .action(async (options: { workspace?: string; target: string[]; prompt: string[]; server?: string; key?: string; json?: boolean }) => {
      const out = createOutput(Boolean(options.json))
      const body = { ...(options.target.length ? { target_ids: options.target } : {}), ...(options.prompt.length ? { prompt_ids: options.prompt } : {}) }
      const server = options.server ?? process.env.BEACON_URL
      if (server) {
        const key = options.key ?? process.env.BEACON_API_KEY
        if (!key) throw new UsageError('--server needs --key (or BEACON_API_KEY): an API key with write:data and read:analytics')
        return remoteCollect(server, key, body, out)
      }
      const [{ checkStoredSecrets }, { startJobs }, { createRun }] = await Promise.all([
        import('../../security/sealed-secrets.js'),
        import('../../start-jobs.js'),
        import('../../collection/runs.js'),
      ])
      const run = await withDatabase(async (database, config) => {
        const workspace = await requireWorkspace(database, options.workspace)
        await checkStoredSecrets(database, config)
        // This process works the run's tasks itself (no re-analysis jobs here).
        const jobs = await startJobs({ ...config, jobsWorker: true, jobsPollSeconds: 1 }, database, { handlers: {} })
        try {
          const id = await createRun(database.db, workspace.id, body, jobs.tasks).catch((error: unknown) => {
            throw error instanceof AppError && error.statusCode < 500 ? new UsageError(error.message) : error
          })
          out.info(`Run ${id} started`)
          return await follow(() => readRun(database.db, workspace.id, id), out)
        } finally {
          await jobs.stop()
        }
      })
      finish(out, run)
    })

  program
    .command('runs')
    .description('collection runs')
    .command('list')
    .description("list a workspace's collection runs, newest first")
    .requiredOption('--workspace <id-or-name>', 'workspace id or name')
    .option('--limit <n>', 'how many (default 20)')
    .option('--json', 'machine-readable output')
    .action(async (options: { workspace: string; limit?: string; json?: boolean }) => {
      const out = createOutput(Boolean(options.json))
      const perPage = integerOption('--limit', options.limit, 1, 100) ?? 20
      const { listRuns } = await import('../../queries/collection/list-runs.js')
      const { runs } = await withDatabase(async (database) => {
        const workspace = await requireWorkspace(database, options.workspace)
        return listRuns(database.db, workspace.id, { page: 1, perPage })
      })
      out.result(
        runs,
        table(
          runs.map((r) => ({
            ...r,
            done: `${answersCounted(r)}/${r.planned}`,
            cost: `$${r.cost_usd.toFixed(4)}`,
            errors: r.errors.map((e) => `${e.code}×${e.count}`),
          })),
          ['id', 'state', 'trigger', 'done', 'succeeded', 'failed', 'skipped', 'cost', 'created_at', 'errors'],
        ),
      )
    })
}

async function readRun(db: DB, workspaceId: string, id: string): Promise<RunView> {
  const { getRun } = await import('../../queries/collection/get-run.js')
  const run = await getRun(db, workspaceId, id)
  if (!run) throw new Error(`run ${id} disappeared`)
  return run
}
