// The one guarded outbound agent (src/security/outbound-agent.ts): embedded-IPv4 IPv6 forms are
// judged by their IPv4; the address checked is the one connected to (every resolved address
// checked, a rebinding name refused); redirects are never followed; no byte of a failed answer
// is handed on; a refused name's error does not say what it resolved to. Then the same through
// postWebhook and the openai_compatible adapter.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGuardedAgent, createGuardedFetch, OutboundRequestError } from '../../src/security/outbound-agent.js'
import { assertOutboundUrl, classifyAddress, type Resolver } from '../../src/security/outbound-url.js'
import { postWebhook } from '../../src/webhooks/post-webhook.js'
import { collectionFetch } from '../../src/collection/adapter-resolver.js'
import { createOpenAICompatibleAdapter } from '../../src/collection/adapters/openai-compatible-adapter.js'
import { ProviderError, type AnswerTarget } from '../../src/collection/adapters/types.js'

const kinds = (addresses: string[]) => Object.fromEntries(addresses.map((address) => [address, classifyAddress(address).class]))

describe('classifyAddress: IPv6 forms carrying an IPv4 address are judged by it', () => {
  it('IPv4-mapped, IPv4-translated, NAT64 (both prefixes), Teredo and 6to4', () => {
    // Teredo (RFC 4380 §4): the client address is the last 32 bits inverted. RFC 4380's own
    // example 2001:0:4136:e378:8000:63bf:3fff:fdd2 carries 192.0.2.45 (documentation range).
    // 127.0.0.1 -> 0x80fffffe, 169.254.169.254 -> 0x56015601, 8.8.8.8 -> 0xf7f7f7f7.
    // Local-use NAT64 /48 (RFC 6052 §2.2): IPv4 in bits 48–63 and 72–87, e.g.
    // 169.254.169.254 -> 64:ff9b:1:a9fe:a9:fe00::, 10.0.0.1 -> 64:ff9b:1:a00:0:100::,
    // 8.8.8.8 -> 64:ff9b:1:808:8:800:: (the operator's own translator: private at best).
    expect(
      kinds([
        '::ffff:169.254.169.254',
        '::ffff:0:a9fe:a9fe',
        '64:ff9b::a9fe:a9fe',
        '64:ff9b:1::a9fe:a9fe',
        '64:ff9b:1:a9fe:a9:fe00::',
        '2001::5601:5601',
        '2001:0:4136:e378:8000:63bf:5601:5601',
        '2002:a9fe:a9fe::1',
        '::ffff:0.0.0.0',
        '64:ff9b::',
        '2002::',
      ]),
    ).toEqual({
      '::ffff:169.254.169.254': 'forbidden',
      '::ffff:0:a9fe:a9fe': 'forbidden',
      '64:ff9b::a9fe:a9fe': 'forbidden',
      '64:ff9b:1::a9fe:a9fe': 'forbidden',
      '64:ff9b:1:a9fe:a9:fe00::': 'forbidden',
      '2001::5601:5601': 'forbidden',
      '2001:0:4136:e378:8000:63bf:5601:5601': 'forbidden',
      '2002:a9fe:a9fe::1': 'forbidden',
      '::ffff:0.0.0.0': 'forbidden',
      '64:ff9b::': 'forbidden',
      '2002::': 'forbidden',
    })
    expect(
      kinds([
        '::ffff:7f00:1',
        '::ffff:0:7f00:1',
        '64:ff9b::7f00:1',
        '64:ff9b::10.0.0.1',
        '64:ff9b:1:a00:0:100::',
        '64:ff9b:1:808:8:800::',
        '2001::80ff:fffe',
        '2001:0:4136:e378:8000:63bf:3fff:fdd2',
        '2002:c0a8:101::1',
        '::ffff:100.64.0.1',
      ]),
    ).toEqual({
      '::ffff:7f00:1': 'private',
      '::ffff:0:7f00:1': 'private',
      '64:ff9b::7f00:1': 'private',
      '64:ff9b::10.0.0.1': 'private',
      '64:ff9b:1:a00:0:100::': 'private',
      '64:ff9b:1:808:8:800::': 'private',
      '2001::80ff:fffe': 'private',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2': 'private',
      '2002:c0a8:101::1': 'private',
      '::ffff:100.64.0.1': 'private',
    })
    expect(kinds(['64:ff9b::808:808', '64:ff9b:1::808:808', '2001::f7f7:f7f7', '2002:808:808::1', '2001:4860:4860::8888', '2001:db8::1'])).toEqual({
      '64:ff9b::808:808': 'public',
      '64:ff9b:1::808:808': 'public',
      '2001::f7f7:f7f7': 'public',
      '2002:808:808::1': 'public',
      '2001:4860:4860::8888': 'public',
      // documentation, not Teredo (2001:db8::/32 is outside 2001::/32)
      '2001:db8::1': 'private',
    })
  })

  it('unspecified, link-local, metadata and CGNAT in their plain forms', () => {
    expect(kinds(['0.0.0.0', '::', '169.254.169.254', 'fe80::1', 'fd00:ec2::254', '100.100.100.200', '100.64.0.1'])).toEqual({
      '0.0.0.0': 'forbidden',
      '::': 'forbidden',
      '169.254.169.254': 'forbidden',
      'fe80::1': 'forbidden',
      'fd00:ec2::254': 'forbidden',
      '100.100.100.200': 'forbidden',
      '100.64.0.1': 'private',
    })
  })
})

const SECRET_BODY = 'AKIA-internal-secret-answer-body'

describe('the guarded agent against a local server', () => {
  let server: http.Server
  let port: number
  const hits: string[] = []
  beforeAll(async () => {
    server = http.createServer((request, response) => {
      hits.push(request.url ?? '')
      if (request.url?.startsWith('/redirect')) {
        // As in the issue: a redirect to the metadata path on 0.0.0.0 (which reaches this host).
        response.writeHead(302, { location: `http://0.0.0.0:${port}/latest/meta-data/iam/security-credentials/`, 'content-type': 'text/plain' })
        response.end(SECRET_BODY)
      } else if (request.url?.startsWith('/latest/meta-data')) {
        response.end(SECRET_BODY)
      } else if (request.url?.startsWith('/error')) {
        response.writeHead(500, { 'content-type': 'application/json', 'retry-after': '7' })
        response.end(JSON.stringify({ error: { message: SECRET_BODY } }))
      } else if (request.url?.startsWith('/page')) {
        response.writeHead(200, { 'content-type': 'text/html' })
        response.end(`<html>${SECRET_BODY}</html>`)
      } else {
        response.writeHead(200, { 'content-type': 'application/json' })
        response.end(JSON.stringify({ ok: true }))
      }
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })

  const loopback: Resolver = async () => [{ address: '127.0.0.1', family: 4 }]

  it('does not follow a redirect and hands back neither its body nor its Location', async () => {
    const agent = createGuardedAgent({ allowPrivate: true })
    const guardedFetch = createGuardedFetch(agent)
    const before = hits.length
    const response = await guardedFetch(`http://127.0.0.1:${port}/redirect`, { method: 'POST', body: '{}' })
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBeNull()
    expect(await response.text()).toBe('')
    expect(hits.slice(before)).toEqual(['/redirect'])
    await agent.close()
  })

  it('hands back a failed answer with its status and Retry-After only; a 2xx whole', async () => {
    const agent = createGuardedAgent({ allowPrivate: true })
    const guardedFetch = createGuardedFetch(agent)
    const failed = await guardedFetch(`http://127.0.0.1:${port}/error`)
    expect([failed.status, failed.headers.get('retry-after'), failed.headers.get('content-type'), await failed.text()]).toEqual([500, '7', null, ''])
    const ok = await guardedFetch(`http://127.0.0.1:${port}/ok`)
    expect([ok.status, await ok.json()]).toEqual([200, { ok: true }])
    await agent.close()
  })

  it('checks every address a name resolves to, on the lookup it connects with; the refusal does not say what they were', async () => {
    const before = hits.length
    // A private (or metadata) address after a public one: refused, nothing sent.
    for (const [allowPrivate, addresses] of [
      [false, ['93.184.215.14', '127.0.0.1']],
      [true, ['93.184.215.14', '169.254.169.254']],
      [true, ['127.0.0.1', '::ffff:a9fe:a9fe']],
    ] as const) {
      const agent = createGuardedAgent({ allowPrivate, resolver: async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })) })
      const error = await createGuardedFetch(agent)(`http://internal.test:${port}/ok`).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(error, addresses.join()).toBeInstanceOf(OutboundRequestError)
      const cause = error as OutboundRequestError
      expect(cause.code).toBe('refused_address')
      expect(cause.message).toMatch(/^internal\.test is refused: it resolves to an address webhooks may not reach/)
      for (const address of addresses) expect(cause.message).not.toContain(address)
      await agent.close()
    }
    expect(hits.length).toBe(before)
    // The same name resolving to loopback only, with private allowed: connects.
    const agent = createGuardedAgent({ allowPrivate: true, resolver: loopback })
    expect((await createGuardedFetch(agent)(`http://internal.test:${port}/ok`)).status).toBe(200)
    expect(hits.slice(before)).toEqual(['/ok'])
    await agent.close()
  })

  it('a name that passed when saved and now resolves privately (rebinding) is refused at connect time', async () => {
    let lookups = 0
    const rebinding: Resolver = async () => (lookups++ === 0 ? [{ address: '93.184.215.14', family: 4 }] : [{ address: '127.0.0.1', family: 4 }])
    await assertOutboundUrl(`http://rebind.test:${port}/ok`, { allowPrivate: false, resolver: rebinding })
    const before = hits.length
    const agent = createGuardedAgent({ allowPrivate: false, resolver: rebinding })
    await expect(createGuardedFetch(agent)(`http://rebind.test:${port}/ok`)).rejects.toMatchObject({ code: 'refused_address' })
    expect(lookups).toBe(2)
    expect(hits.length).toBe(before)
    await agent.close()
  })

  it('refuses literal link-local, unspecified and embedded metadata addresses without connecting, even with private allowed', async () => {
    const agent = createGuardedAgent({ allowPrivate: true })
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      `http://0.0.0.0:${port}/ok`,
      `http://[::ffff:a9fe:a9fe]/`,
      `http://[64:ff9b::a9fe:a9fe]/`,
      'http://metadata.google.internal/',
    ]) {
      await expect(createGuardedFetch(agent)(url), url).rejects.toMatchObject({ code: 'refused_address' })
    }
    await agent.close()
  })

  it('postWebhook: a redirect is not followed, a refused name is not contacted, no body is kept', async () => {
    const before = hits.length
    const redirect = await postWebhook(new URL(`http://127.0.0.1:${port}/redirect`), '{}', {}, { timeoutMs: 3000, policy: { allowPrivate: true } })
    expect(redirect).toMatchObject({ status: 302, error: 'redirect (302) not followed' })
    const failed = await postWebhook(new URL(`http://127.0.0.1:${port}/error`), '{}', {}, { timeoutMs: 3000, policy: { allowPrivate: true } })
    expect(failed).toMatchObject({ status: 500, error: 'receiver answered 500' })
    expect(hits.slice(before)).toEqual(['/redirect', '/error'])
    const refused = await postWebhook(
      new URL(`http://hooks.test:${port}/ok`),
      '{}',
      {},
      {
        timeoutMs: 3000,
        policy: {
          allowPrivate: false,
          resolver: async () => [
            { address: '93.184.215.14', family: 4 },
            { address: '127.0.0.1', family: 4 },
          ],
        },
      },
    )
    expect(refused.status).toBeNull()
    expect(refused.error).toMatch(/^hooks\.test is refused: it resolves to an address webhooks may not reach; .*WEBHOOK_ALLOW_PRIVATE=true/)
    expect(refused.error).not.toMatch(/127\.0\.0\.1|93\.184/)
    expect(hits.length).toBe(before + 2)
  })

  describe('the openai_compatible adapter through collectionFetch', () => {
    const target: AnswerTarget = { provider: 'openai', model: 'llama3.1:8b', api: 'openai_compatible', web_search: false }
    const ask = async (path: string, settings: Parameters<typeof collectionFetch>[0] = { collectionAllowPrivate: true }, host = `127.0.0.1:${port}`) => {
      const adapter = createOpenAICompatibleAdapter({ baseURL: `http://${host}${path}`, fetch: collectionFetch(settings) })
      return adapter.ask({ target, prompt: 'Which tool?', timeoutMs: 5000 }).then(
        () => {
          throw new Error('expected a failure')
        },
        (error: unknown) => {
          expect(error).toBeInstanceOf(ProviderError)
          return error as ProviderError
        },
      )
    }

    it('a 302 to the metadata path is a bad_request naming the status only; the metadata path is never asked', async () => {
      const before = hits.length
      const error = await ask('/redirect/v1')
      expect(error.kind).toBe('bad_request')
      expect(error.message).toMatch(/^openai_compatible http:\/\/127\.0\.0\.1:\d+\/redirect\/v1 \(HTTP 302\): redirect \(302\) not followed/)
      expect(error.message).not.toMatch(/meta-data|0\.0\.0\.0|AKIA/)
      expect(hits.slice(before)).toEqual(['/redirect/v1/chat/completions'])
    })

    it('no byte of an error answer or of a non-JSON 2xx reaches the error', async () => {
      const server = await ask('/error/v1')
      expect([server.kind, server.status, server.retryAfterMs]).toEqual(['server', 500, 7000])
      expect(server.message).not.toContain('AKIA')
      const html = await ask('/page/v1')
      expect(html.kind).toBe('malformed')
      expect(html.message).toMatch(/the answer is not a chat completion/)
      expect(html.message).not.toMatch(/AKIA|html/)
    })

    it('a refused base_url is a bad_request (not retried) that does not say what the name resolved to', async () => {
      const error = await ask('/v1', { collectionAllowPrivate: false, outboundResolver: async () => [{ address: '10.1.2.3', family: 4 }] }, `llm.test:${port}`)
      expect(error.kind).toBe('bad_request')
      expect(error.retryable).toBe(false)
      expect(error.message).toMatch(/base_url refused: llm\.test is refused: it resolves to an address collection targets may not reach; .*COLLECTION_ALLOW_PRIVATE=true/)
      expect(error.message).not.toContain('10.1.2.3')
    })
  })
})
