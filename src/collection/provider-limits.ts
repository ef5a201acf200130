// Caps on what this instance sends to each provider (docs/collection.md): requests in flight
// (COLLECTION_CONCURRENCY) and requests started per rolling minute
// (COLLECTION_REQUESTS_PER_MINUTE). Per instance: N instances send up to N times the caps,
// so set them to the provider's limit divided by the number of instances.
//
// And a gate per target: until a target has answered once in this process, its requests go
// one at a time, so a bad key (401/403) costs one provider request, not one per worker; the
// waiting answers then see the target flagged and fail fast.

class Semaphore {
  private active = 0
  private readonly waiting: (() => void)[] = []
  constructor(private readonly limit: number) {}
  async acquire(): Promise<void> {
    if (this.active < this.limit) {
      this.active += 1
      return
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve))
  }
  release(): void {
    const next = this.waiting.shift()
    if (next) next()
    else this.active -= 1
  }
}

/** Rolling one-minute window of request starts. */
class MinuteWindow {
  private readonly starts: number[] = []
  private chain: Promise<void> = Promise.resolve()
  constructor(private readonly perMinute: number) {}
  /** Resolves when one more request may start; callers queue in order. */
  take(): Promise<void> {
    const turn = this.chain.then(async () => {
      for (;;) {
        const now = Date.now()
        while (this.starts.length && this.starts[0] <= now - 60_000) this.starts.shift()
        if (this.starts.length < this.perMinute) {
          this.starts.push(now)
          return
        }
        await new Promise((resolve) => setTimeout(resolve, this.starts[0] + 60_000 - now + 5))
      }
    })
    this.chain = turn
    return turn
  }
}

export interface ProviderCaps {
  concurrency: number
  requestsPerMinute: number
}

export class ProviderLimits {
  private readonly semaphores = new Map<string, Semaphore>()
  private readonly windows = new Map<string, MinuteWindow>()
  private readonly verified = new Set<string>()
  private readonly probing = new Map<string, Promise<void>>()

  constructor(private readonly caps: ProviderCaps) {}

  /**
   * Runs `request` within the provider's caps, after the target's gate. `beforeRequest` runs
   * once the gate is passed (re-read the target: a probe may just have flagged it) and may
   * return a value that ends the call without a request.
   */
  async run<T, S>(provider: string, targetKey: string, beforeRequest: () => Promise<S | undefined>, request: () => Promise<T>): Promise<{ answered: T } | { stopped: S }> {
    const probe = await this.enterGate(targetKey)
    let ok = false
    try {
      const stop = await beforeRequest()
      if (stop !== undefined) return { stopped: stop }
      const semaphore = this.semaphores.get(provider) ?? new Semaphore(this.caps.concurrency)
      this.semaphores.set(provider, semaphore)
      const window = this.windows.get(provider) ?? new MinuteWindow(this.caps.requestsPerMinute)
      this.windows.set(provider, window)
      await semaphore.acquire()
      try {
        await window.take()
        const answered = await request()
        ok = true
        return { answered }
      } finally {
        semaphore.release()
      }
    } finally {
      if (probe) probe(ok)
    }
  }

  /** Returns a release function when this caller is the target's probe, undefined when the target is known good. */
  private async enterGate(key: string): Promise<((ok: boolean) => void) | undefined> {
    for (;;) {
      if (this.verified.has(key)) return undefined
      const current = this.probing.get(key)
      if (!current) {
        let done!: () => void
        this.probing.set(key, new Promise<void>((resolve) => (done = resolve)))
        return (ok) => {
          if (ok) this.verified.add(key)
          this.probing.delete(key)
          done()
        }
      }
      await current
    }
  }
}
