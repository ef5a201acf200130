// At most N exports generated at once on this instance (config exportConcurrency), and at
// most M of them for one workspace (exportConcurrencyPerWorkspace): each one holds a
// database connection and CPU for as long as its client reads, so without the second
// limit one tenant's slow downloads could take every slot and starve the others.
export interface ConcurrencyGate {
  /** a release function, or null when the instance or this key is at its limit */
  tryAcquire(key: string): (() => void) | null
  readonly active: number
  readonly capacity: number
  readonly perKeyCapacity: number
  /** slots held by one key */
  activeFor(key: string): number
}

export function createConcurrencyGate(capacity: number, perKeyCapacity: number = capacity): ConcurrencyGate {
  let active = 0
  const byKey = new Map<string, number>()
  return {
    tryAcquire(key) {
      const held = byKey.get(key) ?? 0
      if (active >= capacity || held >= perKeyCapacity) return null
      active += 1
      byKey.set(key, held + 1)
      let released = false
      return () => {
        if (released) return
        released = true
        active -= 1
        const left = (byKey.get(key) ?? 1) - 1
        if (left > 0) byKey.set(key, left)
        else byKey.delete(key)
      }
    },
    get active() {
      return active
    },
    activeFor(key) {
      return byKey.get(key) ?? 0
    },
    capacity,
    perKeyCapacity,
  }
}
