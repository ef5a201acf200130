// How far the demo workspace is while `beacon serve --demo` builds it after the server
// started listening (docs/dashboard.md): the terminal prints it, and GET /demo-status
// answers it to the dashboard, which shows a banner until the demo is complete.
export interface DemoStatus {
  state: 'building' | 'ready' | 'failed'
  /** items (answers and AI overviews) stored so far, of `total` */
  done: number
  total: number
}

export class DemoProgress {
  private current: DemoStatus = { state: 'building', done: 0, total: 0 }

  get status(): DemoStatus {
    return this.current
  }

  update(done: number, total: number): void {
    this.current = { state: 'building', done, total }
  }

  ready(): void {
    this.current = { state: 'ready', done: this.current.total, total: this.current.total }
  }

  failed(): void {
    this.current = { ...this.current, state: 'failed' }
  }
}
