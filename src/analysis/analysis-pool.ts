// Analysis (above all the NLP parse behind sentiment) is most of ingestion's CPU time.
// A batch is split across worker threads so ingestion uses every core, while the main
// thread keeps serving requests. Results are those of analyzeResponse on the main thread:
// the same pure functions run in each worker. Small batches, a pool of size 0, or a pool
// whose workers cannot start are analysed on the main thread.
//
// Memory (issue 33; README.md beside this file, "Matcher memory"): threads are sent a
// matcher's SharedArrayBuffer, not the brand list, so a brand set is compiled once per
// process, whatever the number of threads; each thread runs under a heap limit
// (ANALYSIS_THREAD_HEAP_MB), so a batch that would need more is refused (413 naming the
// limit) and its thread replaced, while the other batches it had queued run on the
// replacement.
import { extname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { AppError } from '../core/errors.js'
import { analyzeResponse, type ResponseAnalysis } from './analyze-response.js'
import { configureMatcherCache, matcherCache, type BrandMatcher } from './mentions.js'
import { DEFAULT_THREAD_HEAP_MB } from './memory-limits.js'
import type { AnalysisReply, AnalysisTask, ForgetMatcher, MemoryRequest, ThreadMemory } from './analysis-worker.js'

export type AnalysisInput = AnalysisTask['items'][number]

/** Below this many responses (and INLINE_MAX_CHARS of text) a batch is analysed inline: messaging would cost more. */
export const MIN_PARALLEL_BATCH = 32
/** A smaller batch with more text than this goes to the threads anyway: long answers would hold the event loop. */
const INLINE_MAX_CHARS = 50_000
const INLINE_SLICE = 20
/** Matchers one thread keeps besides those the cache evicts (matchers compiled outside the cache). */
const MATCHERS_PER_THREAD = 8

// The worker is this module's sibling: compiled JavaScript in the build (dist/), loaded as
// it is; TypeScript when running from the sources (tests, a checkout without a build), loaded
// through tsx as bin/beacon.js does.
const workerExtension = extname(fileURLToPath(import.meta.url))
const workerUrl = JSON.stringify(new URL(`./analysis-worker${workerExtension}`, import.meta.url).href)
const bootstrap = workerExtension === '.ts' ? `import('tsx/esm/api').then(({ register }) => { register(); return import(${workerUrl}) })` : `import(${workerUrl})`

/** The batch being analysed when its thread reached its heap limit. */
export class AnalysisMemoryError extends AppError {
  constructor(heapMb: number) {
    super(
      413,
      'payload_too_large',
      `Analysing this batch needed more memory than an analysis thread may use (ANALYSIS_THREAD_HEAP_MB = ${heapMb} MB); send fewer or shorter answers per request`,
    )
  }
}

/** The thread went away before it started on this task (another task exhausted its heap, or it crashed). */
class ThreadLostError extends Error {}

interface Pending {
  resolve: (results: ResponseAnalysis[]) => void
  reject: (error: Error) => void
}

const liveThreads = new Set<AnalysisThread>()
let nextMemoryRequest = 1

class AnalysisThread {
  private readonly worker: Worker
  /** in the order sent, which is the order the thread works through them */
  private readonly pending = new Map<number, Pending>()
  private readonly memoryRequests = new Map<number, (usage: ThreadMemory) => void>()
  readonly ready: Promise<void>
  failed = false
  /** terminated by its pool (closing): its tasks are not retried elsewhere */
  private terminated = false
  private outOfMemory = false
  /** matchers this thread holds, least recently used first */
  private readonly held = new Map<number, BrandMatcher>()

  constructor(private readonly heapMb: number) {
    this.worker = new Worker(bootstrap, { eval: true, resourceLimits: { maxOldGenerationSizeMb: heapMb } })
    // Idle workers must not keep a finished CLI command or test alive.
    this.worker.unref()
    this.ready = new Promise((resolve, reject) => {
      this.worker.once('message', (message) => (message === 'ready' ? resolve() : reject(new Error('analysis worker did not start'))))
      this.worker.once('error', reject)
    })
    this.worker.on('message', (reply: AnalysisReply | 'ready') => {
      if (reply === 'ready') return
      if ('memory' in reply) {
        this.memoryRequests.get(reply.memory)?.(reply.usage)
        this.memoryRequests.delete(reply.memory)
        return
      }
      const pending = this.pending.get(reply.id)
      this.pending.delete(reply.id)
      if (!pending) return
      if ('error' in reply) pending.reject(new Error(`analysis failed in a worker thread: ${reply.error}`))
      else pending.resolve(reply.results)
      if (this.pending.size === 0) this.worker.unref()
    })
    this.worker.on('error', (error: Error & { code?: string }) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') this.outOfMemory = true
      this.fail(error)
    })
    this.worker.on('exit', (code) => this.fail(new Error(`analysis worker exited with code ${code}`)))
    liveThreads.add(this)
  }

  get closed(): boolean {
    return this.terminated
  }

  get load(): number {
    return this.pending.size
  }

  run(matcher: BrandMatcher, items: AnalysisInput[], id: number): Promise<ResponseAnalysis[]> {
    if (this.failed) return Promise.reject(new ThreadLostError('analysis worker is gone'))
    const known = this.held.has(matcher.id)
    this.held.delete(matcher.id)
    this.held.set(matcher.id, matcher)
    const task: AnalysisTask = { id, matcherId: matcher.id, items, ...(known ? {} : { matcher: matcher.shared }) }
    // Referenced while it has work, so the process waits for the answer.
    this.worker.ref()
    const result = new Promise<ResponseAnalysis[]>((resolve, reject) => {
      this.pending.set(task.id, { resolve, reject })
      this.worker.postMessage(task)
    })
    if (this.held.size > MATCHERS_PER_THREAD) this.forget(this.held.values().next().value as BrandMatcher)
    return result
  }

  forget(matcher: BrandMatcher): void {
    if (!this.held.delete(matcher.id) || this.failed) return
    this.worker.postMessage({ forget: matcher.id } satisfies ForgetMatcher)
  }

  memory(): Promise<ThreadMemory | null> {
    if (this.failed) return Promise.resolve(null)
    const id = nextMemoryRequest++
    return new Promise((resolve) => {
      this.memoryRequests.set(id, resolve)
      this.worker.postMessage({ memory: id } satisfies MemoryRequest)
    })
  }

  private fail(error: Error): void {
    if (this.failed) return
    this.failed = true
    liveThreads.delete(this)
    // Tasks run one at a time in the order sent: the first pending one was running.
    let first = true
    for (const pending of this.pending.values()) {
      if (first && this.outOfMemory) pending.reject(new AnalysisMemoryError(this.heapMb))
      else pending.reject(first || this.terminated ? error : new ThreadLostError(error.message))
      first = false
    }
    this.pending.clear()
    for (const resolve of this.memoryRequests.values()) resolve({ heapUsed: 0, heapTotal: 0, external: 0, arrayBuffers: 0, matchers: 0 })
    this.memoryRequests.clear()
  }

  terminate(): Promise<number> {
    this.terminated = true
    liveThreads.delete(this)
    return this.worker.terminate()
  }
}

export class AnalysisPool {
  private threads: AnalysisThread[] = []
  private nextId = 1
  private unsubscribe: (() => void) | undefined

  /** `heapMb`: each thread's heap limit (resourceLimits.maxOldGenerationSizeMb). */
  constructor(
    readonly size: number,
    heapMb?: number,
  ) {
    this.heapMb = heapMb ?? defaultThreadHeapMb
  }

  readonly heapMb: number

  /** worker threads started and alive */
  get running(): number {
    return this.threads.filter((thread) => !thread.failed).length
  }

  /** Analyses every item with the matcher's brand set; results in item order. */
  async analyze(items: readonly AnalysisInput[], matcher: BrandMatcher): Promise<ResponseAnalysis[]> {
    if (this.size === 0 || (items.length < MIN_PARALLEL_BATCH && textLength(items) < INLINE_MAX_CHARS)) return analyzeInline(items, matcher)
    let threads: AnalysisThread[]
    try {
      threads = await this.startedThreads()
    } catch {
      // No worker could start (a locked-down runtime): the main thread does the work.
      return analyzeInline(items, matcher)
    }
    const share = Math.ceil(items.length / threads.length)
    // Not evicted from the cache while the threads read it.
    matcherCache.pin(matcher)
    try {
      const parts = await Promise.all(
        threads.map((thread, i) => {
          const slice = items.slice(i * share, (i + 1) * share) as AnalysisInput[]
          return slice.length ? this.runSlice(thread, slice, matcher) : Promise.resolve([])
        }),
      )
      return parts.flat()
    } finally {
      matcherCache.unpin(matcher)
    }
  }

  private async runSlice(thread: AnalysisThread, slice: AnalysisInput[], matcher: BrandMatcher, retried = false): Promise<ResponseAnalysis[]> {
    try {
      return await thread.run(matcher, slice, this.nextId++)
    } catch (error) {
      if (error instanceof AnalysisMemoryError) throw error
      if (error instanceof Error && error.message.startsWith('analysis failed in a worker thread')) throw error
      // The thread died under another task (or crashed): a replacement runs this slice.
      this.threads = this.threads.filter((t) => !t.failed)
      if (!retried && !thread.closed) {
        try {
          const live = await this.startedThreads()
          return await this.runSlice(
            live.reduce((a, b) => (b.load < a.load ? b : a)),
            slice,
            matcher,
            true,
          )
        } catch (retryError) {
          if (retryError instanceof AnalysisMemoryError) throw retryError
        }
      }
      return analyzeInline(slice, matcher)
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
    // A matcher the cache lets go is dropped by the threads too, so its buffer is freed.
    this.unsubscribe ??= matcherCache.onEvict((matcher) => this.threads.forEach((thread) => thread.forget(matcher)))
    while (this.threads.length < this.size) this.threads.push(new AnalysisThread(this.heapMb))
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
    this.unsubscribe?.()
    this.unsubscribe = undefined
    await Promise.all(threads.map((thread) => thread.terminate()))
  }
}

function textLength(items: readonly AnalysisInput[]): number {
  let chars = 0
  for (const item of items) chars += typeof item.content === 'string' ? item.content.length : 0
  return chars
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

let defaultThreadHeapMb = DEFAULT_THREAD_HEAP_MB

/** MATCHER_CACHE_MB now, and ANALYSIS_THREAD_HEAP_MB for pools created from now on (config.ts). */
export function configureAnalysisMemory(config: { matcherCacheMb: number; analysisThreadHeapMb: number }): void {
  configureMatcherCache(config.matcherCacheMb)
  defaultThreadHeapMb = config.analysisThreadHeapMb
}

/** Heap figures of every live analysis thread of this process (benchmarks), MB. */
export async function analysisThreadMemory(): Promise<{ heapUsedMb: number; heapTotalMb: number; externalMb: number; matchers: number }[]> {
  const mb = (bytes: number) => Math.round(bytes / 1024 / 1024)
  const usage = await Promise.all([...liveThreads].map((thread) => thread.memory()))
  return usage.filter((u) => u !== null).map((u) => ({ heapUsedMb: mb(u.heapUsed), heapTotalMb: mb(u.heapTotal), externalMb: mb(u.external), matchers: u.matchers }))
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
