// The SSRF guard: which addresses webhooks may reach, at creation (literal or resolved) and
// at connect time (a name that resolves elsewhere by then is refused before any byte is sent).
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertOutboundUrl, classifyAddress, guardedLookup, OutboundUrlError, type Resolver } from '../../src/security/outbound-url.js'

const kinds = (addresses: string[]) => addresses.map((address) => classifyAddress(address).class)

describe('classifyAddress', () => {
  it('refuses link-local and metadata addresses always, in every spelling', () => {
    expect(
      kinds(['169.254.169.254', '169.254.0.1', 'fe80::1', 'febf::1', '[fe80::1]', '::ffff:169.254.169.254', '::ffff:a9fe:a9fe', '64:ff9b::a9fe:a9fe', '2002:a9fe:a9fe::1']),
    ).toEqual(Array(9).fill('forbidden'))
    expect(kinds(['100.100.100.200', '168.63.129.16', 'fd00:ec2::254', '0.0.0.0', '::', '224.0.0.1', 'ff02::1', '255.255.255.255'])).toEqual(Array(8).fill('forbidden'))
  })

  it('marks private, loopback, unique-local, CGNAT and documentation ranges private', () => {
    const privateOnes = [
      '127.0.0.1',
      '127.255.255.254',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '100.64.0.1',
      '100.127.255.255',
      '198.18.0.1',
      '192.0.2.1',
      '::1',
      'fd12:3456::1',
      'fc00::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '::127.0.0.1',
      '2001:db8::1',
      'fec0::1',
    ]
    expect(kinds(privateOnes)).toEqual(Array(privateOnes.length).fill('private'))
  })

  it('lets public addresses through, including neighbours of the private ranges', () => {
    const publicOnes = [
      '8.8.8.8',
      '93.184.215.14',
      '172.15.255.255',
      '172.32.0.0',
      '100.63.255.255',
      '100.128.0.0',
      '169.253.255.255',
      '11.0.0.0',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
      '2a00::1',
    ]
    expect(kinds(publicOnes)).toEqual(Array(publicOnes.length).fill('public'))
  })
})

describe('assertOutboundUrl (at creation)', () => {
  const resolveTo =
    (...addresses: string[]): Resolver =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
  const refused = (url: string, allowPrivate = false, resolver: Resolver = resolveTo('93.184.215.14')) =>
    assertOutboundUrl(url, { allowPrivate, resolver }).then(
      () => 'allowed',
      (error: unknown) => (error instanceof OutboundUrlError ? error.message : `other: ${String(error)}`),
    )

  it('accepts public http(s) URLs and refuses other schemes, credentials and junk', async () => {
    expect(await refused('https://hooks.example.com/beacon')).toBe('allowed')
    expect(await refused('http://93.184.215.14:8080/x')).toBe('allowed')
    expect(await refused('ftp://example.com/')).toMatch(/http or https/)
    expect(await refused('https://user:pw@example.com/')).toMatch(/credentials/)
    expect(await refused('not a url')).toMatch(/absolute http/)
  })

  it('refuses literal private addresses unless allowed, link-local and metadata always', async () => {
    for (const url of ['http://127.0.0.1:9000/', 'http://[::1]/', 'http://10.0.0.8/', 'http://[::ffff:127.0.0.1]/', 'http://2130706433/', 'http://0x7f.1/']) {
      expect(await refused(url), url).toMatch(/WEBHOOK_ALLOW_PRIVATE=true/)
      expect(await refused(url, true), url).toBe('allowed')
    }
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[fe80::1]/',
      'http://[::ffff:169.254.169.254]/',
      'http://metadata.google.internal/',
      'http://100.100.100.200/',
    ]) {
      expect(await refused(url, true), url).toMatch(/never reach/)
    }
  })

  it('refuses a name that resolves to a refused address (any of them)', async () => {
    // The message names the setting but never what the name resolved to (no internal DNS map).
    const privateAfterPublic = await refused('https://internal.example/', false, resolveTo('93.184.215.14', '10.0.0.5'))
    expect(privateAfterPublic).toMatch(/^internal\.example is refused: it resolves to an address webhooks may not reach; .*WEBHOOK_ALLOW_PRIVATE=true/)
    expect(privateAfterPublic).not.toMatch(/10\.0\.0\.5|93\.184|private \(/)
    expect(await refused('https://internal.example/', true, resolveTo('10.0.0.5'))).toBe('allowed')
    const metadata = await refused('https://sneaky.example/', true, resolveTo('169.254.169.254'))
    expect(metadata).toMatch(/^sneaky\.example is refused: it resolves to an address webhooks may not reach; .*link-local and cloud metadata addresses never/)
    expect(metadata).not.toMatch(/169\.254/)
    expect(
      await refused('https://nowhere.example/', false, async () => {
        throw Object.assign(new Error('nope'), { code: 'ENOTFOUND' })
      }),
    ).toMatch(/could not be resolved \(ENOTFOUND\)/)
  })
})

describe('guardedLookup (at connect time)', () => {
  let server: http.Server
  let port: number
  let hits = 0
  beforeAll(async () => {
    server = http.createServer((_request, response) => {
      hits += 1
      response.end('ok')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const get = (allowPrivate: boolean, resolver: Resolver) =>
    new Promise<string>((resolve) => {
      const request = http.get({ host: 'rebind.example', port, path: '/', agent: false, lookup: guardedLookup({ allowPrivate, resolver }) }, (response) => {
        response.resume()
        resolve(`status ${response.statusCode}`)
      })
      request.on('error', (error) => resolve(error instanceof OutboundUrlError ? `refused: ${error.message}` : `error: ${error.message}`))
    })

  it('connects to the address it checked, and refuses a name now resolving to a private or metadata address', async () => {
    const toLoopback: Resolver = async () => [{ address: '127.0.0.1', family: 4 }]
    expect(await get(true, toLoopback)).toBe('status 200')
    expect(hits).toBe(1)
    expect(await get(false, toLoopback)).toMatch(/^refused: rebind\.example is refused: it resolves to an address webhooks may not reach/)
    expect(await get(true, async () => [{ address: '169.254.169.254', family: 4 }])).toMatch(
      /^refused: rebind\.example is refused: .*link-local and cloud metadata addresses never$/,
    )
    expect(await get(true, async () => [{ address: '::ffff:169.254.169.254', family: 6 }])).toMatch(/^refused: rebind\.example is refused: /)
    expect(hits).toBe(1)
  })
})
