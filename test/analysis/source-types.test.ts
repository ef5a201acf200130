import { describe, expect, it } from 'vitest'
import { classifySource, compileSourceClassifier, hasInstitutionalSuffix, loadSourceDomains, LISTED_SOURCE_TYPES } from '../../src/analysis/source-types.js'
import { registrableDomain } from '../../src/analysis/urls.js'

const none = { ownedDomains: [], competitorDomains: [] }

describe('classifySource', () => {
  it('classifies the primary brand and competitors by registrable domain', () => {
    const ctx = { ownedDomains: ['https://www.monday.com/'], competitorDomains: ['asana.com', 'notion.so'] }
    expect(classifySource('monday.com', ctx)).toBe('owned')
    expect(classifySource('support.monday.com', ctx)).toBe('owned')
    expect(classifySource('asana.com', ctx)).toBe('competitor')
    expect(classifySource('www.notion.so', ctx)).toBe('competitor')
    expect(classifySource('monday.community', ctx)).toBe('other')
  })

  it('lets owned win over competitor and brand domains win over the shipped list', () => {
    expect(classifySource('acme.com', { ownedDomains: ['acme.com'], competitorDomains: ['acme.com'] })).toBe('owned')
    expect(classifySource('reddit.com', { ownedDomains: [], competitorDomains: ['reddit.com'] })).toBe('competitor')
  })

  it('keeps shared-hosting sites apart', () => {
    const ctx = { ownedDomains: ['acme.github.io'], competitorDomains: [] }
    expect(classifySource('acme.github.io', ctx)).toBe('owned')
    expect(classifySource('other.github.io', ctx)).toBe('ugc')
  })

  it.each([
    ['wikipedia.org', 'reference'],
    ['en.wikipedia.org', 'reference'],
    ['britannica.com', 'reference'],
    ['reddit.com', 'ugc'],
    ['quora.com', 'ugc'],
    ['stackoverflow.com', 'ugc'],
    ['youtube.com', 'ugc'],
    ['medium.com', 'ugc'],
    ['someone.blogspot.com', 'ugc'],
    ['g2.com', 'ugc'],
    ['capterra.com', 'ugc'],
    ['trustpilot.com', 'ugc'],
    ['nytimes.com', 'editorial'],
    ['theverge.com', 'editorial'],
    ['techcrunch.com', 'editorial'],
    ['forbes.com', 'editorial'],
    ['bbc.co.uk', 'editorial'],
    ['europa.eu', 'institutional'],
    ['un.org', 'institutional'],
    ['www.nhs.uk', 'institutional'],
    ['www.police.uk', 'institutional'],
    ['who.int', 'institutional'],
    ['cdc.gov', 'institutional'],
    ['mit.edu', 'institutional'],
    ['army.mil', 'institutional'],
    ['ox.ac.uk', 'institutional'],
    ['www.gov.uk', 'institutional'],
    ['monash.edu.au', 'institutional'],
    ['sat.gob.mx', 'institutional'],
    ['service-public.gouv.fr', 'institutional'],
    ['health.govt.nz', 'institutional'],
    ['mhlw.go.jp', 'institutional'],
    ['example.com', 'other'],
    ['gov.example.com', 'other'],
    ['governance.com', 'other'],
    ['edu-tools.io', 'other'],
  ])('%s -> %s', (domain, expected) => {
    expect(classifySource(domain, none)).toBe(expected)
  })

  it('accepts URLs and odd input without throwing', () => {
    expect(classifySource('https://www.reddit.com/r/x', none)).toBe('ugc')
    expect(classifySource('', none)).toBe('other')
    expect(classifySource('localhost', none)).toBe('other')
  })

  it('ignores empty brand domains', () => {
    const ctx = { ownedDomains: ['', null as unknown as string], competitorDomains: [] }
    expect(classifySource('example.com', ctx)).toBe('other')
  })

  it('compiles a reusable classifier', () => {
    const classify = compileSourceClassifier({ ownedDomains: ['acme.com'], competitorDomains: ['rival.com'] })
    expect(['acme.com', 'rival.com', 'reddit.com', 'x.org'].map(classify)).toEqual(['owned', 'competitor', 'ugc', 'other'])
  })
})

describe('hasInstitutionalSuffix', () => {
  it('looks only at the public suffix', () => {
    expect(hasInstitutionalSuffix('whitehouse.gov')).toBe(true)
    expect(hasInstitutionalSuffix('school.sch.uk')).toBe(true)
    expect(hasInstitutionalSuffix('minsalud.gov.co')).toBe(true)
    expect(hasInstitutionalSuffix('governance.co')).toBe(false)
    expect(hasInstitutionalSuffix('gov.example.com')).toBe(false)
  })
})

describe('source-domains.json', () => {
  const lists = loadSourceDomains()

  it('has every listed category with entries', () => {
    for (const type of LISTED_SOURCE_TYPES) expect(lists[type].length).toBeGreaterThan(0)
  })

  it('lists each domain once, lowercase, as a registrable domain', () => {
    const all = LISTED_SOURCE_TYPES.flatMap((type) => lists[type])
    expect(new Set(all).size).toBe(all.length)
    for (const domain of all) {
      expect(domain).toBe(domain.toLowerCase())
      expect(registrableDomain(domain)).toBe(domain)
    }
  })
})
