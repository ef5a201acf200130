// Compiled brand matchers of this process, bounded in bytes (MATCHER_CACHE_MB), least
// recently used evicted first (issue 33; README.md beside this file). A matcher's bytes are its
// shared buffer, which every analysis thread reads too, so this bound is the matchers'
// memory for the whole process. A matcher in use (pinned: a batch on the analysis threads,
// a re-analysis job) is never evicted; a build that cannot fit even after evicting every
// idle matcher is refused with a 503 that names the limit, rather than growing the process
// until it dies.
import { AppError } from '../core/errors.js'

export interface Sized {
  /** bytes this value holds (its buffer) */
  readonly bytes: number
}

interface Entry<V> {
  key: string
  value: V
  bytes: number
  pins: number
  cached: boolean
}

export interface MatcherCacheStats {
  limitMb: number
  usedMb: number
  entries: number
  pinned: number
  hits: number
  builds: number
  evictions: number
  refusals: number
}

const MB = 1024 * 1024
const round = (bytes: number) => Math.round((bytes / MB) * 10) / 10

/** Lets a build claim its bytes before allocating them (throws when they cannot fit). */
export type Reserve = (bytes: number) => void

export class MatcherCache<V extends Sized> {
  private readonly entries = new Map<string, Entry<V>>() // least recently used first
  private readonly byValue = new WeakMap<V, Entry<V>>()
  private readonly building = new Map<string, Promise<V>>()
  private readonly evictListeners = new Set<(value: V) => void>()
  /** bytes of cached entries, of evicted entries still pinned, and of builds under way */
  private used = 0
  /** builds that take long run one at a time: their transient memory and CPU are one build's */
  private queue: Promise<unknown> = Promise.resolve()
  private counters = { hits: 0, builds: 0, evictions: 0, refusals: 0 }

  constructor(
    private limitBytes: number,
    /** the setting to name in refusals */
    private readonly setting = 'MATCHER_CACHE_MB',
  ) {}

  setLimit(limitBytes: number): void {
    this.limitBytes = limitBytes
    this.evictIdle(0)
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key)
    if (!entry) return undefined
    this.entries.delete(key)
    this.entries.set(key, entry)
    this.counters.hits++
    return entry.value
  }

  /** The build under way for this key, if any. */
  pending(key: string): Promise<V> | undefined {
    return this.building.get(key)
  }

  /** Builds on this thread, now (small sets: a few milliseconds). */
  buildNow(key: string, build: (reserve: Reserve) => V): V {
    const hit = this.get(key)
    if (hit) return hit
    const reservation = this.reservation()
    try {
      return this.commit(key, build(reservation.reserve), reservation.bytes())
    } catch (error) {
      this.used -= reservation.bytes()
      throw error
    }
  }

  /** Builds once per key however many callers ask at once; builds run one after another. */
  build(key: string, build: (reserve: Reserve) => Promise<V>): Promise<V> {
    const hit = this.get(key)
    if (hit) return Promise.resolve(hit)
    const pending = this.building.get(key)
    if (pending) return pending
    const run = this.queue.then(async () => {
      const done = this.get(key)
      if (done) return done
      const reservation = this.reservation()
      try {
        return this.commit(key, await build(reservation.reserve), reservation.bytes())
      } catch (error) {
        this.used -= reservation.bytes()
        throw error
      }
    })
    const settled = run.finally(() => this.building.delete(key))
    this.building.set(key, settled)
    this.queue = settled.catch(() => undefined)
    return settled
  }

  /** Keeps `value` from being evicted until unpin; values not in the cache are ignored. */
  pin(value: V): void {
    const entry = this.byValue.get(value)
    if (entry) entry.pins++
  }

  unpin(value: V): void {
    const entry = this.byValue.get(value)
    if (!entry || entry.pins === 0) return
    entry.pins--
    if (entry.pins === 0 && !entry.cached) this.release(entry)
  }

  /** Called with each value that leaves the cache (analysis threads drop their reference). */
  onEvict(listener: (value: V) => void): () => void {
    this.evictListeners.add(listener)
    return () => this.evictListeners.delete(listener)
  }

  stats(): MatcherCacheStats {
    const entries = [...this.entries.values()]
    return {
      limitMb: round(this.limitBytes),
      usedMb: round(this.used),
      entries: entries.length,
      pinned: entries.filter((e) => e.pins > 0).length,
      ...this.counters,
    }
  }

  /** Drops the entry now (a superseded brand set); a pinned one is freed when unpinned. */
  discard(key: string): void {
    const entry = this.entries.get(key)
    if (entry) this.evict(entry)
  }

  /** Empties the cache (tests). */
  clear(): void {
    for (const entry of [...this.entries.values()]) this.evict(entry)
  }

  private reservation() {
    let reserved = 0
    return {
      bytes: () => reserved,
      reserve: (bytes: number) => {
        this.makeRoom(bytes)
        this.used += bytes
        reserved += bytes
      },
    }
  }

  private commit(key: string, value: V, reserved: number): V {
    this.used += value.bytes - reserved
    this.counters.builds++
    const old = this.entries.get(key)
    if (old) this.evict(old)
    const entry: Entry<V> = { key, value, bytes: value.bytes, pins: 0, cached: true }
    this.entries.set(key, entry)
    this.byValue.set(value, entry)
    return value
  }

  private makeRoom(bytes: number): void {
    if (bytes > this.limitBytes) {
      this.counters.refusals++
      throw new AppError(
        503,
        'service_unavailable',
        `This workspace's brand list needs ${Math.ceil(bytes / MB)} MB to match, more than the ${this.setting} limit of ${Math.floor(this.limitBytes / MB)} MB on this server; shorten the brand list (fewer or shorter aliases) or raise ${this.setting}`,
      )
    }
    this.evictIdle(bytes)
    if (this.used + bytes > this.limitBytes) {
      this.counters.refusals++
      throw new AppError(
        503,
        'service_unavailable',
        `Brand matching memory is full (${this.setting} = ${Math.floor(this.limitBytes / MB)} MB, all of it in use by running analyses); retry in a few seconds`,
        { headers: { 'Retry-After': 5 } },
      )
    }
  }

  private evictIdle(incoming: number): void {
    for (const entry of [...this.entries.values()]) {
      if (this.used + incoming <= this.limitBytes) return
      if (entry.pins === 0) this.evict(entry)
    }
  }

  private evict(entry: Entry<V>): void {
    this.entries.delete(entry.key)
    entry.cached = false
    this.counters.evictions++
    if (entry.pins === 0) this.release(entry)
  }

  private release(entry: Entry<V>): void {
    this.used -= entry.bytes
    this.byValue.delete(entry.value)
    for (const listener of this.evictListeners) listener(entry.value)
  }
}
