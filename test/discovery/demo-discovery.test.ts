// The demo's answers name tools the demo workspace does not track, so discovery has something
// to propose on a fresh `npm start` (issue 15). Pure: the generator and the tally, no database.
import { describe, expect, it } from 'vitest'
import { generateDemoDataset } from '../../src/demo/generate-demo.js'
import { UNLISTED_BRANDS } from '../../src/demo/catalog.js'
import { DiscoveryTally } from '../../src/discovery/rank-candidates.js'
import { KNOWN_SITES } from '../../src/discovery/stop-list.js'

describe('discovery on the demo', () => {
  const dataset = generateDemoDataset({ today: '2026-06-30' })
  const tally = new DiscoveryTally()
  dataset.responses.forEach((r) => tally.add({ id: r.externalId, createdAt: new Date(r.createdAt), content: r.content }))
  const terms = [...dataset.brands.flatMap((b) => [b.name, ...b.aliases, b.domain]), ...dataset.models.flatMap((m) => [m.id, m.name])]
  const names = tally.rank({ terms, sites: KNOWN_SITES }).map((s) => s.name)

  it('proposes every tool the demo answers name without tracking it, and no configured brand', () => {
    for (const tool of UNLISTED_BRANDS) expect(names).toContain(tool.name)
    for (const brand of dataset.brands) expect(names).not.toContain(brand.name)
    // Deterministic: the same dataset gives the same suggestions in the same order.
    const again = new DiscoveryTally()
    dataset.responses.forEach((r) => again.add({ id: r.externalId, createdAt: new Date(r.createdAt), content: r.content }))
    expect(again.rank({ terms, sites: KNOWN_SITES }).map((s) => s.name)).toEqual(names)
    console.log(`demo: ${dataset.responses.length} answers; suggestions ${JSON.stringify(names)}`)
  })
})
