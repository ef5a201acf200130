// The answer page renders an answer's markdown (react-markdown + remark-gfm) safely and keeps
// each brand mention highlighted where the API's spans put it in the raw text.
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import Markdown from 'react-markdown'
import { describe, expect, it } from 'vitest'
import { answerMarkdownOptions } from '../../web/src/lib/answer-markdown.js'

type Mention = Parameters<typeof answerMarkdownOptions>[1][number]

/** Mentions as the API gives them: spans are the offsets of every occurrence of the name in the raw content. */
function mentionsOf(content: string, names: Record<string, string>): Mention[] {
  return Object.entries(names).map(([id, name], index) => {
    const spans: { start: number; end: number }[] = []
    for (let at = content.indexOf(name); at >= 0; at = content.indexOf(name, at + name.length)) spans.push({ start: at, end: at + name.length })
    return { brand_id: id, name, occurrences: spans.length, position: index + 1, sentiment: null, spans }
  })
}

const render = (content: string, mentions: Mention[] = []) => renderToStaticMarkup(createElement(Markdown, answerMarkdownOptions(content, mentions), content))

const marks = (html: string) =>
  [...html.matchAll(/<mark class="brand-(\d)" data-brand-id="([^"]+)" title="[^"]*">([^<]*)<\/mark>/g)].map((m) => ({ slot: m[1], brand: m[2], text: m[3] }))

describe('answer markdown', () => {
  it('renders lists, bold, headings, links and tables', () => {
    const html = render(
      '### 1. Picks\n\n- **Acme Boards**: simple\n- Trackory\n\n1. first\n2. second\n\n| Tool | Price |\n| --- | --- |\n| Acme | $8 |\n\nSee [pricing](https://acme.com/pricing).',
    )
    expect(html).toContain('<h3>1. Picks</h3>')
    expect(html).toMatch(/<ul>\s*<li><strong>Acme Boards<\/strong>: simple<\/li>/)
    expect(html).toContain('<ol>')
    expect(html).toContain('<table>')
    // Aligned columns would need inline styles, which the dashboard's CSP refuses.
    expect(render('| a | b |\n| :-: | --: |\n| 1 | 2 |')).not.toContain('style=')
    expect(html).toContain('<a href="https://acme.com/pricing" target="_blank" rel="noopener noreferrer nofollow">pricing</a>')
  })

  it('never renders raw HTML, script links or remote images', () => {
    const html = render(
      'Hi <script>alert(1)</script> <img src=x onerror=alert(1)> [click](javascript:alert(1)) ![logo](https://evil.example/x.png)\n\n<div onclick="x()">block</div>',
    )
    expect(html).not.toMatch(/<script|<img|<div|onerror|onclick|javascript:/i)
    // The image is a plain outbound link instead of a request the page would make.
    expect(html).toContain('<a href="https://evil.example/x.png" target="_blank" rel="noopener noreferrer nofollow">logo</a>')
  })

  it('marks every mention at the API’s offsets, inside bold, links and list items too', () => {
    const content = '1. **Acme Boards** – fast.\n2. [Trackory](https://trackory.example) is cheaper than Acme Boards.\n\nMost teams pick Acme Boards or Trackory.'
    const mentions = mentionsOf(content, { 'id-acme': 'Acme Boards', 'id-track': 'Trackory' })
    const found = marks(render(content, mentions))
    // In reading order, one mark per span, each carrying its brand.
    const expected = mentions
      .flatMap((m, index) => m.spans.map((s) => ({ start: s.start, slot: String(index), brand: m.brand_id, text: content.slice(s.start, s.end) })))
      .sort((a, b) => a.start - b.start)
      .map(({ slot, brand, text }) => ({ slot, brand, text }))
    expect(found).toEqual(expected)
    expect(found).toHaveLength(5)
  })

  it('finds a mention when escapes make the text differ from its source', () => {
    const content = 'Price \\*starts\\* low at Acme Boards.'
    const html = render(content, mentionsOf(content, { a: 'Acme Boards' }))
    expect(marks(html)).toEqual([{ slot: '0', brand: 'a', text: 'Acme Boards' }])
    expect(html).toContain('*starts*')
  })
})
