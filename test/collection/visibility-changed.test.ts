// visibility.changed after a run (docs/agents-and-notifications.md, docs/uncertainty-and-discovery.md): sent for a brand whose share of answers
// moved significantly since the previous run, on the prompt × target pairs both runs asked;
// not for unchanged brands, not for small samples, and not again by a later run that
// shows no further change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { createBrand, createPrompt } from '../helpers/requests.js'
import { setAdapterOverride } from '../../src/collection/adapter-resolver.js'
import { significantChanges } from '../../src/collection/visibility-changes.js'
import { createWebhook } from '../../src/webhooks/webhooks.js'
import { SecretBox } from '../../src/security/secret-box.js'
import { addTarget, fakeAdapter, startRun, waitForRun, type FakeCall } from './helpers.js'

describe('significantChanges', () => {
  const side = (responses: number) => ({ start_date: '2026-11-20', end_date: '2026-11-20', responses })
  it('reports a significant move with both shares and the test, and nothing for a steady brand', () => {
    const changes = significantChanges('run-2', side(40), side(40), [
      { id: 'a', name: 'Acme', current: 10, previous: 40 },
      { id: 'g', name: 'Globex', current: 21, previous: 20 },
    ])
    expect(changes).toHaveLength(1)
    expect(changes[0]).toMatchObject({
      run_id: 'run-2',
      brand: { id: 'a', name: 'Acme' },
      previous: { visibility: 1, responses: 40 },
      current: { visibility: 0.25, responses: 40 },
      change: { delta: -0.75, significant: true },
    })
    expect(changes[0].change.p_value).toBeLessThan(0.001)
  })
  it('claims nothing under 30 answers on either side, however large the move', () => {
    expect(significantChanges('r', side(29), side(100), [{ id: 'a', name: 'Acme', current: 0, previous: 100 }])).toEqual([])
    expect(significantChanges('r', side(0), side(100), [{ id: 'a', name: 'Acme', current: 0, previous: 100 }])).toEqual([])
  })
})

describe.each(testBackends)('visibility.changed after runs (%s)', (backend) => {
  let ctx: TestContext
  const calls: FakeCall[] = []
  let named = ['Acme', 'Globex']

  beforeAll(async () => {
    ctx = await createTestContext(backend, { jobsWorker: true, rateLimitPerMinute: 1_000_000, collectionConcurrency: 8 })
    setAdapterOverride({ answer: (target) => (target.model.startsWith('fake') ? fakeAdapter(calls, undefined, named) : undefined) })
  }, 120_000)
  afterAll(async () => {
    setAdapterOverride(undefined)
    await ctx.close()
  })

  it('fires for the brand that dropped out of the answers, once', async () => {
    const w = await ctx.tenant()
    await createBrand(ctx, w.key, { name: 'Acme', is_primary: true })
    await createBrand(ctx, w.key, { name: 'Globex' })
    for (let i = 0; i < 30; i++) await createPrompt(ctx, w.key, `Which tool for team ${i}?`)
    await addTarget(ctx, w.key, { provider: 'openai', model: 'fake-visibility', api: 'demo' })
    const webhook = await createWebhook(
      ctx.database.db,
      w.workspaceId,
      { url: 'https://hooks.example.com/beacon', events: ['visibility.changed'] },
      SecretBox.fromSecretKey('visibility-test-secret-key-0123456789abcdef'),
    )
    const events = async () =>
      (
        await ctx.database.db
          .selectFrom('webhook_delivery')
          .select(['event', 'payload'])
          .where('workspace_id', '=', w.workspaceId)
          .where('webhook_id', '=', webhook.id)
          .orderBy('created_at')
          .execute()
      ).map(
        (d) =>
          JSON.parse(d.payload) as {
            type: string
            data: {
              run_id: string
              brand: { name: string }
              previous: { visibility: number; responses: number }
              current: { visibility: number; responses: number }
              change: { delta: number; significant: boolean }
            }
          },
      )

    named = ['Acme', 'Globex']
    const first = await waitForRun(ctx, w.key, (await startRun(ctx, w.key)).id, 90_000)
    expect(first).toMatchObject({ state: 'succeeded', succeeded: 30 })
    expect(await events()).toEqual([]) // nothing to compare with yet

    // Acme disappears from every answer; Globex stays in all of them.
    named = ['Globex', 'Initech']
    const second = await waitForRun(ctx, w.key, (await startRun(ctx, w.key)).id, 90_000)
    expect(second).toMatchObject({ state: 'succeeded', succeeded: 30 })
    const afterSecond = await events()
    expect(afterSecond).toHaveLength(1)
    expect(afterSecond[0]).toMatchObject({
      type: 'visibility.changed',
      data: {
        run_id: second.id,
        brand: { name: 'Acme' },
        previous: { visibility: 1, responses: 30 },
        current: { visibility: 0, responses: 30 },
        change: { delta: -1, significant: true },
      },
    })

    // The same answers again: no further change, no further event.
    const third = await waitForRun(ctx, w.key, (await startRun(ctx, w.key)).id, 90_000)
    expect(third.state).toBe('succeeded')
    expect(await events()).toHaveLength(1)
  })
})
