import { describe, expect, it } from 'vitest'
import { createConcurrencyGate } from '../../src/exports/concurrency-gate.js'

describe('export concurrency gate', () => {
  it('limits the instance and each key, and releases once', () => {
    const gate = createConcurrencyGate(3, 2)
    const a1 = gate.tryAcquire('a')
    const a2 = gate.tryAcquire('a')
    expect(a1 && a2).toBeTruthy()
    expect(gate.tryAcquire('a')).toBeNull() // the key's limit
    const b1 = gate.tryAcquire('b')
    expect(b1).toBeTruthy()
    expect(gate.tryAcquire('c')).toBeNull() // the instance's limit
    expect(gate.active).toBe(3)
    a1?.()
    a1?.() // a second release changes nothing
    expect(gate.active).toBe(2)
    expect(gate.activeFor('a')).toBe(1)
    expect(gate.tryAcquire('c')).toBeTruthy()
    expect(gate.tryAcquire('a')).toBeNull()
  })
})
