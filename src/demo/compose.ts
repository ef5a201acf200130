/**
 * Text composition for demo answers and AI-overview snippets. Pure functions of
 * their inputs and the supplied Rng.
 */
import type { BrandProfile, DemoProvider, DemoTag, PromptDef } from './catalog.js'
import type { Rng } from './random.js'

export const MIN_ANSWER_CHARS = 400
export const MAX_ANSWER_CHARS = 2000
export const MIN_AIO_CHARS = 200
export const MAX_AIO_CHARS = 600

export interface Citation {
  url: string
  title?: string
}

export interface AnswerInput {
  rng: Rng
  prompt: PromptDef
  provider: DemoProvider
  /** Position in the date window, 0 (first day) … 1 (today). */
  t: number
  /** Brands to mention, in the order the answer should rank them. */
  mentioned: readonly BrandProfile[]
  /** Provider citation list (used for footnote markers and "Sources" blocks). */
  citations: readonly Citation[]
  /** A tool the workspace does not track, named after the listed brands (no draws from `rng`, so the rest of the answer is unchanged). */
  unlisted?: { name: string; note: string }
}

/** The unlisted tool in the answer's own style: a list item, a heading, or a sentence. */
function unlistedItem(style: Style, position: number, tool: { name: string; note: string }): string {
  const sentence = `${tool.name} is a newer option known for ${tool.note}.`
  switch (style) {
    case 'numbered':
      return `${position}. **${tool.name}** – ${sentence}`
    case 'bullets':
      return `- **${tool.name}**: ${sentence}`
    case 'headings':
      return `### ${position}. ${tool.name}\n${sentence}`
    default:
      return `Some teams also shortlist ${tool.name}, a newer option known for ${tool.note}.`
  }
}

type Style = 'numbered' | 'headings' | 'bullets' | 'prose' | 'table' | 'howto' | 'nobrand'

const STYLE_WEIGHTS: Record<DemoProvider, [Style, number][]> = {
  openai: [
    ['numbered', 3],
    ['headings', 3],
    ['bullets', 1],
    ['prose', 1],
    ['table', 2],
  ],
  anthropic: [
    ['numbered', 2],
    ['headings', 0.5],
    ['bullets', 2],
    ['prose', 4],
    ['table', 1],
  ],
  google: [
    ['numbered', 2],
    ['headings', 1],
    ['bullets', 4],
    ['prose', 1],
    ['table', 2],
  ],
  perplexity: [
    ['numbered', 4],
    ['headings', 1],
    ['bullets', 2],
    ['prose', 2],
    ['table', 1],
  ],
}

const UTM_SOURCE: Record<DemoProvider, string> = {
  openai: 'chatgpt',
  anthropic: 'claude',
  google: 'gemini',
  perplexity: 'perplexity',
}

const INTROS: Record<DemoTag, string[]> = {
  comparison: [
    'There is no single best tool for every team, but a handful of platforms consistently come out ahead when you compare features, usability and price.',
    'Here is a comparison of the options that come up most often, with what each one does well and where it falls short.',
    'The right pick depends on team size, workflow and budget. These are the tools worth shortlisting.',
  ],
  pricing: [
    'Pricing for project management software varies widely, from free plans for small teams to enterprise contracts billed per seat. Here is how the main options compare.',
    'Most tools charge per user per month, and the jump from the starter tier to the business tier is where costs add up. A quick overview:',
    'If budget is the main constraint, look closely at seat minimums, annual-billing discounts and which features are locked behind higher tiers.',
  ],
  enterprise: [
    'For larger organizations the key requirements are usually security (SSO, SCIM, audit logs), admin controls and the ability to scale across departments.',
    'Enterprise buyers should weigh compliance certifications, data residency, granular permissions and vendor support alongside the feature list.',
  ],
  smb: [
    'Small teams usually want something quick to set up, affordable and easy for non-technical people to adopt.',
    'For a small team, simplicity beats feature depth: the best tool is the one everyone actually keeps up to date.',
  ],
  integrations: [
    'Integrations matter more than most feature lists suggest: a tool that connects to Slack, GitHub, Google Drive and your calendar saves hours of context switching.',
    'Most modern platforms offer native integrations plus a public API, but the depth of those integrations varies a lot.',
  ],
  alternatives: [
    'If your current tool is no longer a good fit, there are several strong alternatives worth evaluating.',
    'Teams usually switch because of pricing changes, performance problems or missing features. These are the alternatives people move to most often.',
  ],
  reviews: [
    'Based on user reviews on sites like G2 and Capterra, plus discussions in communities such as r/projectmanagement, these are the tools people recommend most often.',
    'Reviews are mixed across the category, but a few patterns are clear when you read enough of them.',
  ],
  'how-to': ['Here is a practical, step-by-step approach that works for most teams.', 'You can do this in almost any modern project management tool. The process looks like this:'],
}

const HOWTO_STEPS: Record<string, string[]> = {
  kanban: [
    'Map your current workflow: list the stages work moves through, from idea to done.',
    'Create one column per stage and keep the number of columns small.',
    'Agree on work-in-progress limits so the board reflects what is actually happening.',
    'Add an owner and a due date to every card, and archive finished work weekly.',
    'Review the board together in a short weekly call and adjust the columns as you learn.',
  ],
  migrate: [
    'Decide what you want to track and who needs to see it.',
    'Clean up the spreadsheet: one row per task, with owner, status and due date columns.',
    'Import the tasks from CSV instead of retyping them.',
    'Set up templates for the work you repeat, such as onboarding or monthly reporting.',
    'Run a two-week pilot with one team before retiring the spreadsheet.',
  ],
  sprint: [
    'Groom the backlog before the meeting so stories are estimated and ready.',
    'Agree on the sprint goal first, then pull in stories that serve it.',
    'Check capacity against planned time off and keep a buffer for unplanned work.',
    'Break stories into tasks and assign owners during the meeting.',
    'Track progress on a burndown chart and review it in the daily stand-up.',
  ],
  automate: [
    'List the tasks your team repeats every week or month.',
    'Create a recurring task or template for each, with a default owner.',
    'Use rules to move, assign or notify automatically when a status changes.',
    'Connect chat and calendar so reminders reach people where they work.',
    'Review the automations monthly and delete the ones nobody needs.',
  ],
  okr: [
    'Define a small number of objectives for the quarter.',
    'Break each objective into two to four measurable key results.',
    'Create a project or board per objective and link the tasks that move each key result.',
    'Update progress weekly and review it in a short check-in.',
  ],
}

function howtoSteps(prompt: PromptDef): string[] {
  const text = prompt.text.toLowerCase()
  if (text.includes('kanban')) return HOWTO_STEPS.kanban
  if (text.includes('sprint')) return HOWTO_STEPS.sprint
  if (text.includes('okr')) return HOWTO_STEPS.okr
  if (text.includes('automate') || text.includes('recurring')) return HOWTO_STEPS.automate
  return HOWTO_STEPS.migrate
}

const EVALUATION_POINTS = [
  '**Ease of use**: can non-technical teammates get started without training?',
  '**Views**: do you need boards only, or also lists, timelines and Gantt charts?',
  '**Integrations**: check chat, calendar, file storage and code hosting.',
  '**Security**: SSO, audit logs and granular permissions matter for larger teams.',
  '**Reporting**: look for dashboards that answer the questions your managers actually ask.',
  '**Pricing**: compare per-seat costs, seat minimums and which features need a higher tier.',
  '**Data portability**: make sure you can export everything, ideally through an API.',
]

const NO_BRAND_CLOSINGS = [
  'If you tell me your team size, budget and the tools you already use, I can suggest specific products.',
  'Shortlist a few tools that meet these criteria and trial them with a real project before deciding.',
  'The best choice is the one your team will actually keep up to date, so involve them in the decision.',
]

const GENERIC_PARAGRAPHS = [
  'Whatever you choose, define a clear workflow first: decide how work moves from backlog to done, who owns each stage, and what "done" means.',
  'Check the export options and the API before committing, so you are not locked in if your needs change.',
  'Pilot the tool with one team for two to four weeks and collect honest feedback before rolling it out more widely.',
  'Keep the setup simple at the start. Most teams over-engineer their boards and custom fields, then stop maintaining them.',
  'Adoption is the real success metric: a simpler tool that everyone updates beats a powerful one that nobody opens.',
  'Budget for training time as well as licences; even intuitive tools need a short onboarding session.',
]

const CLOSINGS_GENERIC = [
  'My recommendation: start free trials of two or three of these and run a real project through each before committing.',
  'The right choice ultimately depends on team size, budget and which integrations you rely on every day.',
  'If you share more about your team size and workflow, I can narrow this down further.',
  'Prices and features change often, so confirm the current plans on each vendor site before deciding.',
]

// Strengths ({F}) and weaknesses ({W}) are noun phrases that read well after "its".
const PRAISE = [
  '{B} is excellent for {U}, and users love its {F}.',
  '{B} stands out for its {F}; reviewers consistently describe it as intuitive and reliable.',
  '{B} is a great choice for {U}, and reviewers single out its {F}.',
  'Teams praise {B} for its {F}, and onboarding is fast and painless.',
  '{B} is widely recommended for {U} thanks to its {F}.',
  'Users are enthusiastic about {B}, especially its {F}, and support is quick to respond.',
]

const CRITICISM = [
  '{B} can be frustrating and slow with larger projects; many reviewers complain about its {W}.',
  '{B} has a steep learning curve, and reviewers frequently call out its {W}.',
  'Users often criticize {B} for its {W}, and several say they are considering a switch.',
  '{B} feels dated and clunky next to newer tools, and people are annoyed by its {W}.',
  'Be careful with {B}: several reviews mention problems with its {W}.',
]

const NEUTRAL = [
  '{B} is known for its {F}, with paid plans starting at about ${P} per user per month.',
  '{B} is aimed at {U} and is best known for its {F}.',
  '{B} leans heavily on its {F} and offers a free trial.',
  '{B} is a common choice for {U}; pricing starts around ${P} per user per month.',
]

export function lerp(a: number, b: number, t: number): number {
  return a + (b - a) * t
}

function fill(template: string, b: BrandProfile, ref: string, rng: Rng): string {
  return template
    .replace('{B}', ref)
    .replace('{F}', rng.pick(b.strengths))
    .replace('{W}', rng.pick(b.weaknesses))
    .replace('{U}', rng.pick(b.bestFor))
    .replace('{P}', String(b.price))
}

function capitalizeFirst(s: string): string {
  return s.length === 0 ? s : s[0].toUpperCase() + s.slice(1)
}

/** How the brand is referred to in running text: mostly its name, sometimes an alias or its domain. */
export function brandRef(rng: Rng, b: BrandProfile): string {
  const r = rng.next()
  if (r < 0.07 && b.aliases.length > 0) return rng.pick(b.aliases)
  if (r < 0.1) return b.domain
  return b.name
}

export function brandUrl(rng: Rng, b: BrandProfile, provider: DemoProvider, path?: string): string {
  const pagePath = path ?? rng.pick(b.pages).path
  const host = rng.chance(0.25) ? `www.${b.domain}` : b.domain
  let url = `https://${host}${pagePath}`
  if (provider === 'openai' && rng.chance(0.5)) url += `?utm_source=${UTM_SOURCE.openai}`
  else if (rng.chance(0.08)) url += `?utm_source=${UTM_SOURCE[provider]}`
  return url
}

/**
 * One praise, criticism or neutral sentence about `b`. With `pronoun`, a
 * sentence that opens with the brand refers to it as "It" (after a heading).
 */
function sentimentSentence(rng: Rng, b: BrandProfile, t: number, ref: string, pronoun = false): string {
  const praise = lerp(b.praiseStart, b.praiseEnd, t)
  const criticism = (1 - praise) * 0.65
  const r = rng.next()
  const template = r < praise ? rng.pick(PRAISE) : r < praise + criticism ? rng.pick(CRITICISM) : rng.pick(NEUTRAL)
  const subject = pronoun && template.startsWith('{B}') ? 'It' : ref
  return capitalizeFirst(fill(template, b, subject, rng))
}

function secondarySentence(rng: Rng, b: BrandProfile, provider: DemoProvider): string {
  const r = rng.next()
  if (r < 0.3) return fill(rng.pick(NEUTRAL), b, 'It', rng)
  if (r < 0.45) return `See the [pricing page](${brandUrl(rng, b, provider, '/pricing')}) for current plans.`
  if (r < 0.6) return `Best for ${rng.pick(b.bestFor)}.`
  return ''
}

interface Ctx {
  rng: Rng
  provider: DemoProvider
  t: number
  footnotes: number
}

/** Appends a Perplexity-style footnote marker to a sentence (sometimes). */
function foot(ctx: Ctx, s: string): string {
  if (ctx.provider !== 'perplexity' || ctx.footnotes === 0 || s === '') return s
  if (!ctx.rng.chance(0.6)) return s
  const n = ctx.rng.int(1, ctx.footnotes)
  return `${s}[${n}]`
}

function heading(ctx: Ctx, b: BrandProfile): string {
  const { rng } = ctx
  const r = rng.next()
  if (r < 0.35) return `[${b.name}](${brandUrl(rng, b, ctx.provider)})`
  if (r < 0.9) return `**${b.name}**`
  return b.name
}

function itemBody(ctx: Ctx, b: BrandProfile): string {
  const first = foot(ctx, sentimentSentence(ctx.rng, b, ctx.t, brandRef(ctx.rng, b), ctx.rng.chance(0.3)))
  const second = foot(ctx, secondarySentence(ctx.rng, b, ctx.provider))
  return second ? `${first} ${second}` : first
}

function numberedItems(ctx: Ctx, brands: readonly BrandProfile[]): string[] {
  const sep = ctx.rng.pick([' – ', ': ', ' — '])
  return brands.map((b, i) => `${i + 1}. ${heading(ctx, b)}${sep}${itemBody(ctx, b)}`)
}

function bulletItems(ctx: Ctx, brands: readonly BrandProfile[]): string[] {
  const marker = ctx.rng.chance(0.7) ? '-' : '*'
  return brands.map((b) => `${marker} ${heading(ctx, b)}: ${itemBody(ctx, b)}`)
}

function headingItems(ctx: Ctx, brands: readonly BrandProfile[]): string[] {
  const { rng } = ctx
  return brands.map((b, i) => {
    const lines = [`### ${i + 1}. ${b.name}`, foot(ctx, sentimentSentence(rng, b, ctx.t, brandRef(rng, b)))]
    lines.push(`- **Best for:** ${rng.pick(b.bestFor)}`)
    lines.push(`- **Starting price:** $${b.price}/user/month`)
    return lines.join('\n')
  })
}

function proseItems(ctx: Ctx, brands: readonly BrandProfile[]): string[] {
  const { rng } = ctx
  const paragraphs: string[] = []
  for (let i = 0; i < brands.length; i += 2) {
    const pair = brands.slice(i, i + 2)
    const sentences = pair.map((b) => foot(ctx, sentimentSentence(rng, b, ctx.t, brandRef(rng, b))))
    if (pair.length === 2 && rng.chance(0.5)) {
      sentences.push(
        `Compared with ${pair[0].name}, ${pair[1].name} is ${rng.pick(['cheaper at entry level', 'stronger on reporting', 'easier to roll out', 'more opinionated about workflow'])}.`,
      )
    }
    paragraphs.push(sentences.join(' '))
  }
  return paragraphs
}

function tableBlock(ctx: Ctx, brands: readonly BrandProfile[]): string[] {
  const { rng } = ctx
  const rows = brands.slice(0, 6).map((b) => {
    const name = rng.chance(0.3) ? `[${b.name}](${brandUrl(rng, b, ctx.provider)})` : b.name
    return `| ${name} | ${rng.pick(b.bestFor)} | $${b.price}/user/month | ${rng.pick(b.strengths)} |`
  })
  const table = ['| Tool | Best for | Starting price | Standout feature |', '|---|---|---|---|', ...rows].join('\n')
  const commentary = brands
    .slice(0, 3)
    .map((b) => foot(ctx, sentimentSentence(rng, b, ctx.t, brandRef(rng, b))))
    .join(' ')
  return [table, commentary]
}

function topClosing(ctx: Ctx, brands: readonly BrandProfile[]): string {
  const { rng } = ctx
  if (brands.length >= 2 && rng.chance(0.55)) {
    const [a, b] = brands
    return `Overall, ${a.name} is the safest pick for most teams, while ${brandRef(rng, b)} is worth a look for its ${rng.pick(b.strengths)}.`
  }
  if (brands.length >= 1 && rng.chance(0.3)) {
    return `If I had to choose one, I would start with ${brands[0].name}.`
  }
  return rng.pick(CLOSINGS_GENERIC)
}

function bareUrlSentence(ctx: Ctx): string {
  const { rng, provider } = ctx
  const utm = rng.chance(0.4) ? `?utm_source=${UTM_SOURCE[provider]}` : ''
  return rng.pick([
    `You can compare verified user reviews at https://www.g2.com/categories/project-management${utm} before deciding.`,
    `Capterra keeps an up-to-date list with filters for team size: https://capterra.com/project-management-software/${utm}`,
    `For an overview of the methodology, see https://en.wikipedia.org/wiki/Project_management_software${utm}.`,
    `A long community thread with first-hand experiences is here: https://news.ycombinator.com/item?id=39012844`,
  ])
}

function sourcesBlock(citations: readonly Citation[]): string {
  return ['Sources:', ...citations.map((c, i) => `[${i + 1}] ${c.url}`)].join('\n')
}

function pickStyle(rng: Rng, prompt: PromptDef, provider: DemoProvider, brandCount: number): Style {
  if (brandCount === 0) return 'nobrand'
  if (prompt.tags.includes('how-to')) return 'howto'
  const weights = STYLE_WEIGHTS[provider]
  return rng.weighted(weights, ([, w]) => w)[0]
}

/**
 * Assembles an answer from head blocks, a body of droppable items and tail
 * blocks, then fits it into [MIN_ANSWER_CHARS, MAX_ANSWER_CHARS].
 */
function fit(rng: Rng, head: string[], items: string[], tail: string[], itemJoiner: string): string {
  const body = [...items]
  const end = [...tail]
  const render = () => {
    const parts = [...head]
    if (body.length > 0) parts.push(body.join(itemJoiner))
    parts.push(...end)
    return parts.filter((p) => p !== '').join('\n\n')
  }
  let text = render()
  while (text.length > MAX_ANSWER_CHARS && end.length > 0) {
    end.pop()
    text = render()
  }
  while (text.length > MAX_ANSWER_CHARS && body.length > 1) {
    body.pop()
    text = render()
  }
  if (text.length > MAX_ANSWER_CHARS) {
    const cut = text.lastIndexOf('. ', MAX_ANSWER_CHARS - 1)
    text = cut > MIN_ANSWER_CHARS ? text.slice(0, cut + 1) : text.slice(0, MAX_ANSWER_CHARS)
  }
  const fillers = rng.shuffle(GENERIC_PARAGRAPHS)
  while (text.length < MIN_ANSWER_CHARS && fillers.length > 0) {
    text = `${text}\n\n${fillers.pop()}`
  }
  return text
}

export function composeAnswer(input: AnswerInput): string {
  const { rng, prompt, provider, t, citations } = input
  const ctx: Ctx = { rng, provider, t, footnotes: provider === 'perplexity' ? citations.length : 0 }
  const primaryTag = prompt.tags[0]
  let listed = [...input.mentioned]
  const style = pickStyle(rng, prompt, provider, listed.length)

  const head: string[] = []
  // "Alternatives to X": X is named in the intro and left out of the list.
  const named = (prompt.named ?? []).map((k) => listed.find((b) => b.key === k)).filter((b): b is BrandProfile => !!b)
  if (prompt.tags.includes('alternatives') && named.length > 0 && listed.length > named.length) {
    const x = named[0]
    head.push(
      foot(
        ctx,
        `${x.name} is a solid product, but it is not right for everyone: ${rng.pick([
          `some teams find its ${rng.pick(x.weaknesses)} hard to live with`,
          `pricing and ${rng.pick(x.weaknesses)} are the usual reasons people look elsewhere`,
          `it is strongest for ${rng.pick(x.bestFor)}, less so for other teams`,
        ])}. Here are the alternatives worth considering.`,
      ),
    )
    listed = listed.filter((b) => b !== x)
  } else {
    head.push(foot(ctx, rng.pick(INTROS[primaryTag])))
  }
  if (provider === 'google' && style !== 'nobrand' && style !== 'howto' && rng.chance(0.5)) {
    head.push(rng.pick(['**Top picks**', '**Popular options**', '**Tools to consider**']))
  }

  let items: string[] = []
  let joiner = '\n'
  const tail: string[] = []
  switch (style) {
    case 'numbered':
      items = numberedItems(ctx, listed)
      break
    case 'bullets':
      items = bulletItems(ctx, listed)
      break
    case 'headings':
      items = headingItems(ctx, listed)
      joiner = '\n\n'
      break
    case 'prose':
      items = proseItems(ctx, listed)
      joiner = '\n\n'
      break
    case 'table':
      items = tableBlock(ctx, listed)
      joiner = '\n\n'
      break
    case 'howto':
    case 'nobrand': {
      if (style === 'nobrand' && !prompt.tags.includes('how-to')) {
        head.push(['Key things to evaluate:', ...rng.sample(EVALUATION_POINTS, rng.int(3, 5)).map((s) => `- ${foot(ctx, s)}`)].join('\n'))
        head.push(rng.pick(GENERIC_PARAGRAPHS))
        break
      }
      const steps = howtoSteps(prompt).slice(0, rng.int(3, 5))
      head.push(steps.map((s, i) => `${i + 1}. ${foot(ctx, s)}`).join('\n'))
      if (style === 'howto') {
        const names = listed.map((b) => brandRef(rng, b))
        const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`
        head.push(`Tools that make this easier include ${list}.`)
        items = listed.slice(0, 4).map((b) => foot(ctx, sentimentSentence(rng, b, t, brandRef(rng, b))))
        joiner = ' '
      } else {
        head.push(rng.pick(GENERIC_PARAGRAPHS))
      }
      break
    }
  }

  if (input.unlisted && style !== 'nobrand') {
    const extra = unlistedItem(style, items.length + 1, input.unlisted)
    if (style === 'numbered' || style === 'bullets' || style === 'headings') items.push(extra)
    else head.push(extra)
  }

  if (provider !== 'perplexity' && rng.chance(0.15)) tail.push(bareUrlSentence(ctx))
  tail.push(style === 'nobrand' ? rng.pick(NO_BRAND_CLOSINGS) : topClosing(ctx, listed))
  if (provider === 'perplexity' && citations.length > 0 && rng.chance(0.25)) tail.push(sourcesBlock(citations))
  if (provider === 'anthropic' && rng.chance(0.3)) {
    tail.push('Note that pricing and feature details change frequently, so it is worth double-checking with each vendor.')
  }

  return fit(rng, head, items, tail, joiner)
}

const AIO_OPENINGS: Record<DemoTag, string[]> = {
  comparison: [
    'Project management software helps teams plan, track and deliver work in one place, with boards, timelines and reporting.',
    'The best project management tool depends on team size, workflow and budget; most offer boards, lists and timeline views.',
  ],
  pricing: ['Project management software typically costs between $0 and $25 per user per month, with free plans for small teams and discounts for annual billing.'],
  enterprise: ['Enterprise work management platforms add security and governance features such as SSO, SCIM provisioning, audit logs and data residency options.'],
  smb: ['For small teams, the most popular project management tools are easy to set up, affordable and include a free or low-cost plan.'],
  integrations: ['Most project management tools integrate with chat, code hosting and file storage services, and many offer an open API with webhooks.'],
  alternatives: ['Teams often switch project management tools because of price increases, performance issues or missing features.'],
  reviews: ['User reviews of project management software tend to focus on ease of use, performance, pricing transparency and customer support.'],
  'how-to': ['To get started, define your workflow stages, create a board with one column per stage, assign owners and review progress weekly.'],
}

const AIO_CLOSINGS = [
  'Many vendors offer free trials, so teams can test a tool with a real project before committing.',
  'Key factors to compare include usability, integrations, reporting and total cost per seat.',
  'Reviews on software comparison sites can help narrow down the options.',
  'Look for export options and an API to avoid lock-in.',
]

export interface AioInput {
  rng: Rng
  prompt: PromptDef
  brands: readonly BrandProfile[]
}

/** An AI-overview snippet of MIN_AIO_CHARS…MAX_AIO_CHARS naming `brands` in the given order. */
export function composeOverview(input: AioInput): string {
  const { rng, prompt, brands } = input
  const head = [rng.pick(AIO_OPENINGS[prompt.tags[0]])]
  if (brands.length > 0) {
    const names = brands.map((b) => b.name)
    const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`
    head.push(
      names.length === 1
        ? rng.pick([`A frequently recommended option is ${list}.`, `One popular choice is ${list}.`])
        : rng.pick([`Popular options include ${list}.`, `Commonly recommended tools are ${list}.`, `Frequently mentioned choices include ${list}.`]),
    )
  }
  const details = brands.map((b) => `${b.name} is known for its ${rng.pick(b.strengths)}.`)
  const closings = rng.sample(AIO_CLOSINGS, 2)
  const render = () => [...head, ...details, ...closings].join(' ')
  let text = render()
  while (text.length > MAX_AIO_CHARS && closings.length > 0) {
    closings.pop()
    text = render()
  }
  while (text.length > MAX_AIO_CHARS && details.length > 0) {
    details.pop()
    text = render()
  }
  const extra = rng.shuffle(AIO_CLOSINGS)
  while (text.length < MIN_AIO_CHARS && extra.length > 0) {
    const next = extra.pop()!
    if (!text.includes(next)) text = `${text} ${next}`
  }
  return text
}
