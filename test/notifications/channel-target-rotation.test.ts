// Channel targets are sealed secrets like webhook secrets: the start-up check names a channel
// whose target opens with neither key, and `beacon secrets rekey`'s function re-seals them
// under the new key (SEALED_SECRETS lists the column; docs/security.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkStoredSecrets, rekeyStoredSecrets } from '../../src/security/sealed-secrets.js'
import { SecretBox, SecretKeyError } from '../../src/security/secret-box.js'
import { channelTargetContext } from '../../src/notifications/events.js'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { post } from '../helpers/requests.js'

const OLD_KEY = 'old-channel-key-0123456789abcdefghijklmnopqrstuv'
const NEW_KEY = 'new-channel-key-ZYXWVUTSRQPONMLKJIHGFEDCBA987654'
const OTHER_KEY = 'unrelated-key-never-used-0123456789-abcdefghijkl'

describe.each(testBackends)('notification channel targets under key rotation (%s)', (backend) => {
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext(backend, { secretKey: OLD_KEY, webhookAllowPrivate: true })
  }, 120_000)
  afterAll(() => ctx?.close())

  it('the start-up check names a target no key opens; rekey re-seals it under the new key', async () => {
    const { key, workspaceId } = await ctx.tenant()
    const url = 'http://127.0.0.1:9/services/T1/B2/rotate-me'
    const response = await post(ctx, '/api/v1/notifications', key, { kind: 'slack', target: url, events: ['collection.run.failed'] })
    expect(response.statusCode, response.body).toBe(201)
    const id = response.json().data.id as string

    await expect(checkStoredSecrets(ctx.database, { secretKey: OTHER_KEY })).rejects.toThrow(SecretKeyError)
    await expect(checkStoredSecrets(ctx.database, { secretKey: OTHER_KEY })).rejects.toThrow(
      new RegExp(`notification channel target \\(notification_channel workspace_id=${workspaceId}, id=${id}\\)`),
    )
    await expect(checkStoredSecrets(ctx.database, { secretKey: OTHER_KEY })).rejects.not.toThrow(/rotate-me/)

    const result = await rekeyStoredSecrets(ctx.database, { secretKey: NEW_KEY, secretKeyPrevious: OLD_KEY })
    expect(result.columns.find((c) => c.table === 'notification_channel')).toMatchObject({ total: 1, resealed: 1, unreadable: [] })
    const row = await ctx.database.db.selectFrom('notification_channel').select('target_sealed').where('id', '=', id).executeTakeFirstOrThrow()
    expect(SecretBox.fromSecretKey(NEW_KEY).open(row.target_sealed, channelTargetContext(workspaceId, id))).toBe(url)
    // Sealed to its row: the same ciphertext under another channel's context does not open.
    expect(() => SecretBox.fromSecretKey(NEW_KEY).open(row.target_sealed, channelTargetContext(workspaceId, '0193a0c0-0000-7000-8000-000000000000'))).toThrow(SecretKeyError)
    expect(await checkStoredSecrets(ctx.database, { secretKey: NEW_KEY })).toMatchObject({ previous: 0 })
  })
})
