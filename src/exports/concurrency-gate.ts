// At most N exports generated at once on this instance (config exportConcurrency): each
// one holds a database connection and CPU for as long as its client reads.
export interface ConcurrencyGate {
  /** a release function, or null when the gate is full */
  tryAcquire(): (() => void) | null
  readonly active: number
  readonly capacity: number
}

export function createConcurrencyGate(capacity: number): ConcurrencyGate {
  let active = 0
  return {
    tryAcquire() {
      if (active >= capacity) return null
      active += 1
      let released = false
      return () => {
        if (released) return
        released = true
        active -= 1
      }
    },
    get active() {
      return active
    },
    capacity,
  }
}
