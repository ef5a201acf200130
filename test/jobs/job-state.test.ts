import { describe, expect, it } from 'vitest'
import { reconcileState, stateFromBoss } from '../../src/jobs/job-state.js'

describe('job states', () => {
  it('maps the six pg-boss states onto the five Beacon shows', () => {
    expect(stateFromBoss('created')).toBe('queued')
    expect(stateFromBoss('retry')).toBe('queued')
    expect(stateFromBoss('active')).toBe('running')
    expect(stateFromBoss('completed')).toBe('succeeded')
    expect(stateFromBoss('failed')).toBe('failed')
    expect(stateFromBoss('cancelled')).toBe('cancelled')
  })

  it("keeps Beacon's row unless pg-boss ended the job without the handler", () => {
    expect(reconcileState('running', 'active')).toBe('running')
    expect(reconcileState('queued', 'retry')).toBe('queued')
    expect(reconcileState('running', 'failed')).toBe('failed')
    expect(reconcileState('queued', 'cancelled')).toBe('cancelled')
    expect(reconcileState('running', null)).toBe('running')
    expect(reconcileState('succeeded', 'failed')).toBe('succeeded')
    expect(reconcileState('failed', 'retry')).toBe('failed')
  })
})
