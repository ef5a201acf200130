// Analysis (above all the NLP parse behind sentiment) is most of ingestion's CPU time.
// A batch is split across worker threads so ingestion uses every core, while the main
// thread keeps serving requests. Results are those of analyzeResponse on the main thread:
// the same pure functions run in each worker. Small batches, a pool of size 0, or a pool
// whose workers cannot start are analysed on the main thread.
import { extname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { analyzeResponse, type ResponseAnalysis } from './analyze-response.js'
import type { BrandMatcher, BrandTerms } from './mentions.js'
import type { AnalysisReply, AnalysisTask } from './analysis-worker.js'

export type AnalysisInput = AnalysisTask['items'][number]

/** Below this many responses a batch is analysed inline: messaging would cost more. */
export const MIN_PARALLEL_BATCH = 32
const INLINE_SLICE = 20

// Workers run the TypeScript sources through tsx, as bin/beacon.js does.
const workerFile = fileURLToPath(new URL(`./analysis-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url))
const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(new URL(`file://${workerFile}`).href)}) })`

interface Pending {
  resolve: (results: ResponseAnalysis[]) => void
  reject: (error: Error) => void
}

class AnalysisThread {
  private readonly worker: Worker
  private readonly pending = new Map<number, Pending>()
  readonly ready: Promise<void>
  failed = false
  /** the brand set this thread holds compiled (sent once, not with every task) */
  private brands: readonly BrandTerms[] | undefined

  constructor() {
    this.worker = new Worker(bootstrap, { eval: true })
    // Idle workers must not keep a finished CLI command or test alive.
    this.worker.unref()
    this.ready = new Promise((resolve, reject) => {
      this.worker.once('message', (message) => (message === 'ready' ? resolve() : reject(new Error('analysis worker did not start'))))
      this.worker.once('error', reject)
    })
    this.worker.on('message', (reply: AnalysisReply | 'ready') => {
      if (reply === 'ready') return
      const pending = this.pending.get(reply.id)
      this.pending.delete(reply.id)
      if (!pending) return
      if ('error' in reply) pending.reject(new Error(`analysis failed in a worker thread: ${reply.error}`))
      else pending.resolve(reply.results)
      if (this.pending.size === 0) this.worker.unref()
    })
    this.worker.on('error', (error) => this.fail(error))
    this.worker.on('exit', (code) => this.fail(new Error(`analysis worker exited with code ${code}`)))
  }

  run(brands: readonly BrandTerms[], items: AnalysisInput[], id: number): Promise<ResponseAnalysis[]> {
    if (this.failed) return Promise.reject(new Error('analysis worker is gone'))
    const task: AnalysisTask = { id, items, ...(brands === this.brands ? {} : { brands: [...brands] }) }
    this.brands = brands
    // Referenced while it has work, so the process waits for the answer.
    this.worker.ref()
    return new Promise((resolve, reject) => {
      this.pending.set(task.id, { resolve, reject })
      this.worker.postMessage(task)
    })
  }

  private fail(error: Error): void {
    this.failed = true
    for (const pending of this.pending.values()) pending.reject(error)
    this.pending.clear()
  }

  terminate(): Promise<number> {
    return this.worker.terminate()
  }
}

export class AnalysisPool {
  private threads: AnalysisThread[] = []
  private nextId = 1

  constructor(readonly size: number) {}

  /** worker threads started and alive */
  get running(): number {
    return this.threads.filter((thread) => !thread.failed).length
  }

  /** Analyses every item with the matcher's brand set; results in item order. */
  async analyze(items: readonly AnalysisInput[], matcher: BrandMatcher): Promise<ResponseAnalysis[]> {
    if (this.size === 0 || items.length < MIN_PARALLEL_BATCH) return analyzeInline(items, matcher)
    let threads: AnalysisThread[]
    try {
      threads = await this.startedThreads()
    } catch {
      // No worker could start (a locked-down runtime): the main thread does the work.
      return analyzeInline(items, matcher)
    }
    const share = Math.ceil(items.length / threads.length)
    try {
      const parts = await Promise.all(
        threads.map((thread, i) => {
          const slice = items.slice(i * share, (i + 1) * share)
          return slice.length ? thread.run(matcher.brands, slice as AnalysisInput[], this.nextId++) : Promise.resolve([])
        }),
      )
      return parts.flat()
    } catch (error) {
      // A worker died mid-batch: replace the dead ones next time; this batch is done inline.
      this.threads = this.threads.filter((thread) => !thread.failed)
      if (error instanceof Error && error.message.startsWith('analysis failed in a worker thread')) throw error
      return analyzeInline(items, matcher)
    }
  }

  /**
   * Starts the worker threads now, so the first batch does not wait for them: each one
   * loads the TypeScript sources and the NLP model before it is ready (seconds of CPU).
   * A server calls it when it starts listening; a pool of size 0 has nothing to start.
   */
  async warmUp(): Promise<void> {
    if (this.size === 0) return
    await this.startedThreads()
  }

  private async startedThreads(): Promise<AnalysisThread[]> {
    while (this.threads.length < this.size) this.threads.push(new AnalysisThread())
    try {
      await Promise.all(this.threads.map((thread) => thread.ready))
    } catch (error) {
      for (const thread of this.threads) void thread.terminate()
      this.threads = []
      throw error
    }
    return this.threads
  }

  async close(): Promise<void> {
    const threads = this.threads
    this.threads = []
    await Promise.all(threads.map((thread) => thread.terminate()))
  }
}

/** On the main thread, yielding now and then so other requests are not kept waiting. */
export async function analyzeInline(items: readonly AnalysisInput[], matcher: BrandMatcher): Promise<ResponseAnalysis[]> {
  const results: ResponseAnalysis[] = []
  for (const [index, item] of items.entries()) {
    if (index % INLINE_SLICE === INLINE_SLICE - 1) await new Promise((resolve) => setImmediate(resolve))
    results.push(analyzeResponse(item, matcher))
  }
  return results
}

let shared: AnalysisPool | undefined

/** The process's pool, sized by ANALYSIS_THREADS (see config.ts); created on first use. */
export function sharedAnalysisPool(size: number): AnalysisPool {
  if (!shared || shared.size !== size) {
    void shared?.close()
    shared = new AnalysisPool(size)
  }
  return shared
}
