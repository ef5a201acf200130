// How an answer's markdown (lists, bold, links, tables) is rendered on the answer page
// (components/answer-markdown.tsx), safely, with react-markdown + remark-gfm. No raw HTML is ever rendered (react-markdown drops it unless a
// raw plugin is added, and none is), link targets go through react-markdown's default URL
// filter (javascript:, data: and the like are removed), links open outside the app without a
// referrer, and images are shown as links (the dashboard's CSP loads no third-party images).
//
// Brand mentions stay highlighted: the API's spans are offsets into the raw markdown
// (docs/dashboard.md, UTF-16 code units of `content`), and every text node of the parsed tree
// keeps its source offsets, so a remark plugin splits the text nodes at the spans and wraps
// each mention in <mark>.
import { createElement, Fragment } from 'react'
import type { Options } from 'react-markdown'
import remarkGfm from 'remark-gfm'
import type { Emphasis, Parent, PhrasingContent, Root, Text } from 'mdast'

/** A mention as GET /responses/{id} gives it (only the fields used here; api.ts has the whole shape). */
export interface Mention {
  brand_id: string
  name: string
  spans: { start: number; end: number }[]
}

export interface MentionSpan {
  start: number
  end: number
  brandId: string
  name: string
  /** colour slot of the brand (its index among the answer's mentions) */
  index: number
}

export function mentionSpans(mentions: readonly Mention[]): MentionSpan[] {
  return mentions.flatMap((m, index) => m.spans.map((s) => ({ start: s.start, end: s.end, brandId: m.brand_id, name: m.name, index }))).sort((a, b) => a.start - b.start)
}

function markNode(text: string, span: MentionSpan): Emphasis {
  // An emphasis node renamed to <mark> through mdast-util-to-hast's data.hName / hProperties.
  return {
    type: 'emphasis',
    children: [{ type: 'text', value: text }],
    data: { hName: 'mark', hProperties: { className: [`brand-${span.index % 10}`], dataBrandId: span.brandId, title: span.name } },
  }
}

/** Splits one text node at the spans that fall inside its source range. */
function splitText(node: Text, source: string, spans: MentionSpan[]): PhrasingContent[] {
  const from = node.position?.start.offset
  const to = node.position?.end.offset
  if (from === undefined || to === undefined) return [node]
  const inside = spans.filter((s) => s.start < to && s.end > from)
  if (inside.length === 0) return [node]
  const exact = source.slice(from, to) === node.value
  const parts: PhrasingContent[] = []
  let at = 0
  for (const span of inside) {
    let start: number
    let end: number
    if (exact) {
      start = Math.max(span.start, from) - from
      end = Math.min(span.end, to) - from
    } else {
      // Escapes, entities or stripped indentation make the node's text differ from its source:
      // find the mention's own text in the node instead, after what is already marked.
      const wanted = source.slice(Math.max(span.start, from), Math.min(span.end, to))
      start = wanted ? node.value.indexOf(wanted, at) : -1
      end = start + wanted.length
    }
    if (start < at || start < 0 || end <= start) continue
    if (start > at) parts.push({ type: 'text', value: node.value.slice(at, start) })
    parts.push(markNode(node.value.slice(start, end), span))
    at = end
  }
  if (at < node.value.length) parts.push({ type: 'text', value: node.value.slice(at) })
  return parts
}

function isParent(node: unknown): node is Parent {
  return typeof node === 'object' && node !== null && Array.isArray((node as Parent).children)
}

export function remarkMentions(options: { source: string; spans: MentionSpan[] }) {
  return (tree: Root) => {
    const walk = (parent: Parent) => {
      const children: Parent['children'] = []
      for (const child of parent.children) {
        if (child.type === 'text') children.push(...splitText(child, options.source, options.spans))
        else {
          if (isParent(child)) walk(child)
          children.push(child)
        }
      }
      parent.children = children
    }
    if (options.spans.length > 0) walk(tree)
  }
}

const outbound = { target: '_blank', rel: 'noopener noreferrer nofollow' }

/** react-markdown's options for an answer: GFM, the mention marks, no raw HTML, safe links. */
export function answerMarkdownOptions(content: string, mentions: readonly Mention[]): Readonly<Options> {
  return {
    remarkPlugins: [remarkGfm, [remarkMentions, { source: content, spans: mentionSpans(mentions) }]],
    skipHtml: true,
    components: {
      a: ({ href, children }) => createElement('a', { href, ...outbound }, children),
      // GFM column alignment arrives as an inline style, which the dashboard's CSP refuses: drop it.
      th: ({ children }) => createElement('th', null, children),
      td: ({ children }) => createElement('td', null, children),
      img: ({ src, alt }) => (typeof src === 'string' && src ? createElement('a', { href: src, ...outbound }, alt || src) : createElement(Fragment, null, alt)),
    },
  }
}
