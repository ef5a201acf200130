// How long a request waits while `beacon serve --demo` seeds a new embedded database
// (issue 32 item 5: no read waits more than 750 ms behind a background write batch). PGlite
// has one connection, so a request waits for the ingest transaction in progress: the
// trivial read `/readyz` (`select 1`) is polled one at a time, 50 ms apart, from the moment
// the server listens until `/demo-status` says ready.
//   npx tsx bench/demo-seed-waits.ts [--runs 2] [checkout …]
// Each checkout (default: this one) is run in turn, `--runs` times, alternating, so an earlier
// commit's worktree is the yardstick in the same minutes. Prints each run and writes
// bench/results/<date>-demo-seed-waits.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { startChildServer } from '../test/helpers/child-server.js'

const { values, positionals } = parseArgs({ options: { runs: { type: 'string', default: '2' } }, allowPositionals: true })
const checkouts = (positionals.length ? positionals : ['.']).map((dir) => resolve(dir))

async function measure(checkout: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'beacon-seed-waits-'))
  // Returned as soon as the server listens: the demo's data is written after that.
  const server = await startChildServer({ BEACON_DATA_DIR: dataDir, DATABASE_URL: '' }, ['--demo'], 120_000, { cwd: checkout, returnWhen: 'listening' }).catch((error: unknown) => {
    rmSync(dataDir, { recursive: true, force: true })
    throw error
  })
  try {
    const started = performance.now()
    const waits: number[] = []
    let failed = 0
    for (;;) {
      const sent = performance.now()
      const ok = await fetch(`${server.url}/readyz`, { signal: AbortSignal.timeout(30_000) }).then(
        (response) => response.ok,
        () => false,
      )
      waits.push(performance.now() - sent)
      if (!ok) failed++
      const status = (await fetch(`${server.url}/demo-status`).then((response) => response.json())) as { state?: string }
      if (status.state === 'ready') break
      if (performance.now() - started > 600_000) throw new Error('the demo was not ready within 10 minutes')
      await new Promise((done) => setTimeout(done, 50))
    }
    const seconds = (performance.now() - started) / 1000
    // Where the worst wait fell: the first polls wait on whatever runs right after listening.
    const worstAt = waits.indexOf(Math.max(...waits))
    const firstPoll = waits[0]
    waits.sort((a, b) => a - b)
    const at = (q: number) => Math.round(waits[Math.min(waits.length - 1, Math.floor(q * waits.length))])
    return {
      checkout,
      seconds_to_ready: Math.round(seconds * 10) / 10,
      probes: waits.length,
      not_ready_answers: failed,
      worst_ms: Math.round(waits.at(-1)!),
      worst_at_poll: worstAt + 1,
      first_poll_ms: Math.round(firstPoll),
      p50_ms: at(0.5),
      p90_ms: at(0.9),
      over_750_ms: waits.filter((w) => w > 750).length,
      load_average: loadavg().map((l) => Math.round(l * 100) / 100),
    }
  } finally {
    await server.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

// This process's first fetch loads its HTTP client (0.1-0.3 s on a busy machine): done once
// here, so the first poll of the first run times the server, not the client.
await fetch('http://127.0.0.1:9/').catch(() => undefined)

const runs = []
for (let round = 0; round < Number(values.runs); round++) {
  for (const checkout of checkouts) {
    const run = await measure(checkout)
    runs.push(run)
    console.log(
      `${checkout}: ready in ${run.seconds_to_ready} s; /readyz worst ${run.worst_ms} ms (poll ${run.worst_at_poll}; first ${run.first_poll_ms} ms), p50 ${run.p50_ms} ms, p90 ${run.p90_ms} ms, ${run.over_750_ms} of ${run.probes} over 750 ms (load ${run.load_average.join(' ')})`,
    )
  }
}
mkdirSync('bench/results', { recursive: true })
const file = `bench/results/${new Date().toISOString().slice(0, 10)}-demo-seed-waits.json`
writeFileSync(file, `${JSON.stringify({ benchmark: 'demo seed waits (embedded database)', date: new Date().toISOString(), runs }, null, 2)}\n`)
console.log(`wrote ${file}`)
