// Cache of serialized analytics answers. Every read is a pure function of the workspace's
// data, the query and today's date, so the key holds all three: the workspace's
// data_version (bumped in the same transaction as every write), the URL and the UTC day.
// A write makes every older entry of that workspace unreachable; they age out by LRU.
export class ResponseCache {
  private readonly entries = new Map<string, string>()

  constructor(private readonly maxEntries: number) {}

  static key(workspaceId: string, dataVersion: number | string, url: string, day: string): string {
    return `${workspaceId}|${dataVersion}|${day}|${url}`
  }

  get(key: string): string | undefined {
    const value = this.entries.get(key)
    if (value !== undefined) {
      // Map keeps insertion order: re-inserting marks the entry as most recently used.
      this.entries.delete(key)
      this.entries.set(key, value)
    }
    return value
  }

  set(key: string, value: string): void {
    if (this.maxEntries <= 0) return
    this.entries.delete(key)
    this.entries.set(key, value)
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value
      if (oldest === undefined) break
      this.entries.delete(oldest)
    }
  }

  get size(): number {
    return this.entries.size
  }
}
