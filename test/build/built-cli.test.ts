// The compiled build (scripts/build-server.mjs, run at install) works on its own: the CLI
// answers --help without TypeScript, and what the code finds relative to its modules is
// there — the analysis worker threads (compiled JavaScript, no tsx), the data tables
// (sentiment lexicon, source domains, prices, the discovery stop list), and the empty
// migrated embedded database a new data directory starts from. Built into a folder
// of this test's own under test-output/ (inside the checkout, so node_modules resolve).
import { spawnSync } from 'node:child_process'
import { mkdtempSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..')

describe('the compiled build', () => {
  let out: string
  beforeAll(() => {
    mkdirSync(join(ROOT, 'test-output'), { recursive: true })
    out = mkdtempSync(join(ROOT, 'test-output', 'build-'))
    const built = spawnSync(process.execPath, ['scripts/build-server.mjs', '--outdir', out], { cwd: ROOT, encoding: 'utf8' })
    expect(built.status, built.stderr).toBe(0)
  }, 120_000)
  afterAll(() => rmSync(out, { recursive: true, force: true }))

  it('holds JavaScript only, with the data tables beside their modules', () => {
    const files = readdirSync(out, { recursive: true }).map(String)
    expect(files.filter((f) => f.endsWith('.ts'))).toEqual([])
    expect(files).toEqual(
      expect.arrayContaining([join('cli', 'main.js'), join('analysis', 'analysis-worker.js'), join('analysis', 'data', 'sentiment-lexicon.json'), 'empty-database.tar.gz']),
    )
  })

  it('answers --help', () => {
    const help = spawnSync(process.execPath, [join(out, 'cli', 'main.js'), '--help'], { encoding: 'utf8', timeout: 60_000 })
    expect(help.status, help.stderr).toBe(0)
    expect(help.stdout).toContain('Usage: beacon')
    for (const command of ['serve', 'workspace', 'import', 'collect', 'mcp']) expect(help.stdout).toContain(command)
  })

  it('starts a new embedded database from the empty one it wrote, migrated', { timeout: 120_000 }, () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'built-cli-'))
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, BEACON_DATA_DIR: dataDir, LOG_LEVEL: 'silent' }
      delete env.DATABASE_URL
      const created = spawnSync(process.execPath, [join(out, 'cli', 'main.js'), 'workspace', 'create', '--name', 'Acme', '--json'], { env, encoding: 'utf8', timeout: 100_000 })
      expect(created.status, created.stderr).toBe(0)
      expect(JSON.parse(created.stdout)).toMatchObject({ name: 'Acme', tier: 'basic' })
      const migrate = spawnSync(process.execPath, [join(out, 'cli', 'main.js'), 'migrate', '--json'], { env, encoding: 'utf8', timeout: 100_000 })
      expect(JSON.parse(migrate.stdout)).toEqual({ applied: [] })
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('analyses in worker threads and reads its data tables', { timeout: 120_000 }, () => {
    // Run by plain node (no tsx): every import below resolves to the build.
    const script = `
      const { AnalysisPool, MIN_PARALLEL_BATCH } = await import(${JSON.stringify(join(out, 'analysis', 'analysis-pool.js'))})
      const { compileBrandMatcher } = await import(${JSON.stringify(join(out, 'analysis', 'mentions.js'))})
      const { loadPriceTable } = await import(${JSON.stringify(join(out, 'collection', 'prices.js'))})
      const { STOP_LIST, KNOWN_SITES } = await import(${JSON.stringify(join(out, 'discovery', 'stop-list.js'))})
      const pool = new AnalysisPool(1)
      const matcher = compileBrandMatcher([{ id: 'acme', name: 'Acme', aliases: [], domain: 'acme.com' }])
      const items = Array.from({ length: MIN_PARALLEL_BATCH }, (_, i) => ({ content: 'Acme is excellent and reliable, see https://acme.com/pricing (' + i + ')' }))
      const results = await pool.analyze(items, matcher)
      console.log(JSON.stringify({ threads: pool.running, results: results.length, first: results[0], prices: Object.keys(loadPriceTable().providers).length, stopWords: STOP_LIST.commonWords.size, sites: KNOWN_SITES.length }))
      await pool.close()`
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 100_000 })
    expect(run.status, run.stderr).toBe(0)
    const report = JSON.parse(run.stdout)
    expect(report.threads).toBe(1)
    expect(report.results).toBeGreaterThanOrEqual(32)
    expect(JSON.stringify(report.first)).toContain('acme')
    expect(report.prices).toBeGreaterThan(0)
    expect(report.stopWords).toBeGreaterThan(0)
    expect(report.sites).toBeGreaterThan(0)
  })
})
