// Data commands: brands, prompts, JSON Lines imports, re-analysis and the demo.
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createInterface } from 'node:readline'
import type { Command } from 'commander'
import type { IngestResult } from '../../ingest/ingest-responses.js'
import type { ReanalysisProgress } from '../../ingest/reanalyze.js'
import type { DB } from '../../db/database.js'
import type { JobQueue } from '../../jobs/job-runtime.js'
import type { seedDemo } from '../../demo/seed-demo.js'
import { AppError } from '../../core/errors.js'
import { requireWorkspace, withDatabase } from '../context.js'
import { createOutput, table, UsageError, type Output } from '../output.js'
import { progressBar } from '../progress-bar.js'

// The ingest, analysis and management modules are imported inside the actions, when a
// command runs: loading them all would cost `beacon --help` most of a second.

const collect = (value: string, previous: string[]) => [...previous, value]

// The CLI runs no job worker: it re-analyses inline, right after the write, with a progress
// bar (the server queues the same work as a background job instead).
const inlineAfterWrite: JobQueue = { enqueue: async () => null }

async function reanalyzeWithProgress(db: DB, workspaceId: string, out: Output, analysisThreads: number): Promise<ReanalysisProgress> {
  const [{ countReanalysisWork, reanalyzeWorkspace }, { sharedAnalysisPool }] = await Promise.all([import('../../ingest/reanalyze.js'), import('../../analysis/analysis-pool.js')])
  const work = await countReanalysisWork(db, workspaceId)
  const bar = progressBar(out, work.responses + work.observations, 'responses and AI overviews')
  try {
    return await reanalyzeWorkspace(db, workspaceId, { analyser: sharedAnalysisPool(analysisThreads), afterBatch: (p) => bar.update(p.responses + p.observations) })
  } finally {
    bar.stop()
  }
}

async function countLines(path: string): Promise<number> {
  let lines = 0
  for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) if (line.trim()) lines++
  return lines
}

type Ingest = (items: unknown[]) => Promise<IngestResult>

/**
 * Streams a JSON Lines file in batches of 1,000. Each batch is one transaction, so an
 * interrupted import keeps whole batches; re-running skips them by external_id.
 */
async function importJsonLines(path: string, out: Output, ingest: Ingest, unit: string) {
  const { MAX_BATCH_ITEMS } = await import('../../ingest/validate-items.js')
  try {
    if (!(await stat(path)).isFile()) throw new Error()
  } catch {
    throw new UsageError(`Cannot read ${path}: give the path of a JSON Lines file`)
  }
  const total = await countLines(path)
  const bar = progressBar(out, total, unit)
  const started = Date.now()
  const totals = { accepted: 0, duplicates: 0, lines: 0 }
  let batch: unknown[] = []
  let batchLines: number[] = []
  const flush = async () => {
    if (batch.length === 0) return
    try {
      const result = await ingest(batch)
      totals.accepted += result.accepted
      totals.duplicates += result.duplicates
    } catch (error) {
      bar.stop()
      if (error instanceof AppError && Array.isArray(error.details)) {
        const lines = (error.details as { index: number; field: string; message: string }[])
          .slice(0, 20)
          .map((d) => `  line ${batchLines[d.index]}: ${d.field ? `${d.field}: ` : ''}${d.message}`)
        throw new Error(
          `Import stopped; this batch was not stored (earlier batches were: ${totals.accepted} new). Fix these lines and re-run; stored lines are skipped by external_id:\n${lines.join('\n')}`,
          { cause: error },
        )
      }
      throw error
    }
    batch = []
    batchLines = []
  }
  let lineNumber = 0
  for await (const line of createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity })) {
    lineNumber++
    if (!line.trim()) continue
    let item: unknown
    try {
      item = JSON.parse(line)
    } catch {
      bar.stop()
      throw new Error(`line ${lineNumber} is not valid JSON; earlier batches were stored (${totals.accepted} new). Fix it and re-run.`)
    }
    batch.push(item)
    batchLines.push(lineNumber)
    totals.lines++
    if (batch.length === MAX_BATCH_ITEMS) {
      await flush()
      bar.update(totals.lines)
    }
  }
  await flush()
  bar.update(totals.lines)
  bar.stop()
  const seconds = (Date.now() - started) / 1000
  return { ...totals, seconds: Math.round(seconds * 10) / 10, per_second: seconds > 0 ? Math.round(totals.lines / seconds) : totals.lines }
}

export function registerDataCommands(program: Command): void {
  const brandCommand = program.command('brand').description('manage brands')
  brandCommand
    .command('add')
    .description('add a brand (re-analyses stored responses)')
    .requiredOption('--workspace <id-or-name>', 'workspace id or name')
    .requiredOption('--name <name>', 'brand name')
    .option('--domain <host>', 'brand domain, e.g. acme.com')
    .option('--alias <alias>', 'another name to match (repeatable)', collect, [])
    .option('--primary', "the workspace's own brand")
    .option('--inactive', 'add as inactive')
    .option('--json', 'machine-readable output')
    .action(async (options: { workspace: string; name: string; domain?: string; alias: string[]; primary?: boolean; inactive?: boolean; json?: boolean }) => {
      const out = createOutput(Boolean(options.json))
      const { createBrand } = await import('../../manage/brands.js')
      const { brand, reanalysis } = await withDatabase(async (database, config) => {
        const workspace = await requireWorkspace(database, options.workspace)
        const { brand } = await createBrand(
          database.db,
          workspace.id,
          {
            name: options.name,
            domain: options.domain,
            aliases: options.alias,
            is_primary: Boolean(options.primary),
            is_active: !options.inactive,
          },
          inlineAfterWrite,
        )
        return { brand, reanalysis: await reanalyzeWithProgress(database.db, workspace.id, out, config.analysisThreads) }
      })
      out.result({ ...brand, reanalysis }, [
        `Added brand "${brand.name}" (${brand.id})`,
        `Re-analysed ${reanalysis.responses} responses and ${reanalysis.observations} AI overviews`,
      ])
    })

  brandCommand
    .command('list')
    .description("list the workspace's brands")
    .requiredOption('--workspace <id-or-name>', 'workspace id or name')
    .option('--json', 'machine-readable output')
    .action(async (options: { workspace: string; json?: boolean }) => {
      const out = createOutput(Boolean(options.json))
      const { listBrands } = await import('../../manage/brands.js')
      const brands = await withDatabase(async (database) => listBrands(database.db, (await requireWorkspace(database, options.workspace)).id))
      const rows = brands.map((b) => ({ ...b, aliases: b.aliases.length ? b.aliases : null, primary: b.is_primary ? 'yes' : '', active: b.is_active ? 'yes' : 'no' }))
      out.result(brands, table(rows, ['id', 'name', 'domain', 'aliases', 'primary', 'active']))
    })

  brandCommand
    .command('discover')
    .description('propose brands the stored answers name but the workspace does not track (inline, progress bar; the API runs it as a job)')
    .requiredOption('--workspace <id-or-name>', 'workspace id or name')
    .option('--json', 'machine-readable output')
    .action(async (options: { workspace: string; json?: boolean }) => {
      const out = createOutput(Boolean(options.json))
      const [{ discoverBrands }, { countSuggestedBrands }] = await Promise.all([
        import('../../discovery/run-discovery.js'),
        import('../../queries/brands/count-suggested-brands.js'),
      ])
      const result = await withDatabase(async (database) => {
        const workspace = await requireWorkspace(database, options.workspace)
        let bar: ReturnType<typeof progressBar> | undefined
        try {
          const found = await discoverBrands(database.db, workspace.id, {
            afterBatch: async (done, total) => {
              bar ??= progressBar(out, total, 'answers')
              bar.update(done)
            },
          })
          return { ...found, pending: await countSuggestedBrands(database.db, workspace.id) }
        } finally {
          bar?.stop()
        }
      })
      out.result(result, [
        `Scanned ${result.responses_scanned} answers in ${result.seconds} s: ${result.suggested} new suggestions, ${result.updated} updated, ${result.pending} waiting for a decision`,
        ...result.suggestions.map((s) => `  ${s.name} (${s.responses} answers, score ${s.score})${s.new ? ' new' : ''}`),
        'Confirm with PATCH /api/v1/brands/{id} {"discovery_status": "confirmed", "is_active": true}, or reject with {"discovery_status": "rejected"}',
      ])
    })

  const promptCommand = program.command('prompt').description('manage prompt templates')
  promptCommand
    .command('add')
    .description('add a prompt template')
    .requiredOption('--workspace <id-or-name>', 'workspace id or name')
    .requiredOption('--text <text>', 'the question asked of AI providers')
    .option('--tag <tag>', 'a tag (repeatable)', collect, [])
    .option('--json', 'machine-readable output')
    .action(async (options: { workspace: string; text: string; tag: string[]; json?: boolean }) => {
      const out = createOutput(Boolean(options.json))
      const { createPrompt } = await import('../../manage/prompts.js')
      const prompt = await withDatabase(async (database) =>
        createPrompt(database.db, (await requireWorkspace(database, options.workspace)).id, { text: options.text, tags: options.tag }),
      )
      out.result(prompt, `Added prompt ${prompt.id}${prompt.tags.length ? ` [${prompt.tags.join(', ')}]` : ''}`)
    })

  promptCommand
    .command('list')
    .description("list the workspace's prompt templates")
    .requiredOption('--workspace <id-or-name>', 'workspace id or name')
    .option('--json', 'machine-readable output')
    .action(async (options: { workspace: string; json?: boolean }) => {
      const out = createOutput(Boolean(options.json))
      const { listPrompts } = await import('../../manage/prompts.js')
      const prompts = await withDatabase(async (database) => listPrompts(database.db, (await requireWorkspace(database, options.workspace)).id))
      const rows = prompts.map((p) => ({ ...p, tags: p.tags.length ? p.tags : null, active: p.is_active ? 'yes' : 'no' }))
      out.result(prompts, table(rows, ['id', 'text', 'tags', 'active']))
    })

  const importCommand = program.command('import').description('import JSON Lines files (one ingestion item per line)')
  for (const kind of ['responses', 'aio'] as const) {
    importCommand
      .command(kind)
      .description(
        kind === 'responses'
          ? 'import AI responses: {external_id?, prompt_id, provider, model, content, created_at, citations?} per line'
          : 'import AI-overview observations: {external_id?, prompt_id, observed_at, has_aio, overview_text?} per line',
      )
      .argument('<file>', 'a .jsonl file')
      .requiredOption('--workspace <id-or-name>', 'workspace id or name')
      .option('--json', 'machine-readable output')
      .action(async (file: string, options: { workspace: string; json?: boolean }) => {
        const out = createOutput(Boolean(options.json))
        const [{ loadBrandMatcher }, { ingestResponses }, { ingestAio }, { sharedAnalysisPool }] = await Promise.all([
          import('../../ingest/brand-terms.js'),
          import('../../ingest/ingest-responses.js'),
          import('../../ingest/ingest-aio.js'),
          import('../../analysis/analysis-pool.js'),
        ])
        const summary = await withDatabase(async (database, config) => {
          const workspace = await requireWorkspace(database, options.workspace)
          const matcher = await loadBrandMatcher(database.db, workspace.id)
          const pool = sharedAnalysisPool(config.analysisThreads)
          const ingest: Ingest =
            kind === 'responses'
              ? (items) => ingestResponses(database.db, workspace.id, items, { matcher, pool })
              : (items) => ingestAio(database.db, workspace.id, items, { matcher })
          return importJsonLines(file, out, ingest, kind === 'responses' ? 'responses' : 'observations')
        })
        out.result(summary, `Imported ${summary.lines} lines: ${summary.accepted} new, ${summary.duplicates} duplicates skipped, in ${summary.seconds} s (${summary.per_second}/s)`)
      })
  }

  program
    .command('reanalyze')
    .description("re-run brand analysis over a workspace's stored responses and AI overviews")
    .requiredOption('--workspace <id-or-name>', 'workspace id or name')
    .option('--json', 'machine-readable output')
    .action(async (options: { workspace: string; json?: boolean }) => {
      const out = createOutput(Boolean(options.json))
      const result = await withDatabase(async (database, config) => {
        const workspace = await requireWorkspace(database, options.workspace)
        return reanalyzeWithProgress(database.db, workspace.id, out, config.analysisThreads)
      })
      out.result(result, `Re-analysed ${result.responses} responses and ${result.observations} AI overviews`)
    })

  program
    .command('demo')
    .description('create or refresh the demo workspace and print a key with every scope')
    .option('--json', 'machine-readable output')
    .action(async (options: { json?: boolean }) => {
      const out = createOutput(Boolean(options.json))
      const result = await withDatabase((database, config) => runDemoSeed(database.db, out, config.analysisThreads))
      out.result(result, demoLines(result, undefined))
    })
}

async function runDemoSeed(db: DB, out: Output, analysisThreads: number) {
  const [{ seedDemo }, { sharedAnalysisPool }] = await Promise.all([import('../../demo/seed-demo.js'), import('../../analysis/analysis-pool.js')])
  let bar: ReturnType<typeof progressBar> | undefined
  const result = await seedDemo(db, {
    pool: sharedAnalysisPool(analysisThreads),
    onProgress: (done, total) => {
      bar ??= progressBar(out, total, 'items')
      bar.update(done)
    },
  })
  bar?.stop()
  return result
}

export function demoLines(result: Awaited<ReturnType<typeof seedDemo>>, url: string | undefined): string[] {
  const base = url ?? 'http://127.0.0.1:3000'
  return [
    `Demo workspace ${result.refreshed ? 'built' : 'up to date'}: ${result.brands} brands, ${result.prompts} prompts, ${result.responses} responses, ${result.observations} AI overviews (${result.seconds} s)`,
    `Demo API key (all scopes, premium): ${result.key}`,
    `Try: curl -H "Authorization: Bearer ${result.key}" ${base}/api/v1/filters`,
    // The fragment never reaches the server or its logs; the dashboard moves it to session storage.
    ...(url ? [`Dashboard: ${url}/#key=${result.key}`] : []),
  ]
}
