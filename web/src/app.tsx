import { lazy, Suspense, useCallback, useEffect, useMemo, useState, type FormEvent } from 'react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { ApiError, apiGet, type FilterValues } from './lib/api'
import { SessionContext, STORAGE_KEY } from './lib/session'
import { keyFromHash, matchRoute } from './lib/url-state'
import { useLocation } from './lib/router'
import { Link, Loading } from './components/ui'
import { DemoBanner } from './components/demo-banner'

// The overview is the usual first page: its code (and the chart library) loads while the
// key is being checked, instead of after.
const overviewCode = () => import('./pages/overview')
if (window.location.pathname === '/') void overviewCode()
const Overview = lazy(overviewCode)
const Brands = lazy(() => import('./pages/brands'))
const Prompts = lazy(() => import('./pages/prompts'))
const Sources = lazy(() => import('./pages/sources'))
const Answers = lazy(() => import('./pages/answers'))
const Aio = lazy(() => import('./pages/aio'))
const Exports = lazy(() => import('./pages/exports'))
const Collection = lazy(() => import('./pages/collection'))
const Settings = lazy(() => import('./pages/settings'))
const Searches = lazy(() => import('./pages/searches'))
const GuidedStart = lazy(() => import('./pages/guided-start'))

const NAV = [
  ['/', 'Overview', 'overview'],
  ['/brands', 'Brands', 'brands'],
  ['/prompts', 'Prompts', 'prompts'],
  ['/sources', 'Sources & URLs', 'sources'],
  ['/searches', 'Engine searches', 'searches'],
  ['/answers', 'Answers', 'answers'],
  ['/aio', 'AI overviews', 'aio'],
  ['/exports', 'Exports', 'exports'],
  ['/collection', 'Collection', 'collection'],
  ['/settings', 'Settings', 'settings'],
] as const

/** Takes a key from `#key=…` into the session and removes the fragment from the address and history. */
function initialKey(): { key: string | null; fromLink: boolean } {
  const fromHash = keyFromHash(window.location.hash)
  if (fromHash) {
    window.history.replaceState(null, '', window.location.pathname + window.location.search)
    return { key: fromHash, fromLink: true }
  }
  return { key: window.sessionStorage.getItem(STORAGE_KEY), fromLink: false }
}

export function App() {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { staleTime: 60_000, retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2 } },
      }),
  )
  const [start] = useState(initialKey)
  const [key, setKey] = useState<string | null>(null)
  const [pending, setPending] = useState<string | null>(start.key)
  const [message, setMessage] = useState<string | null>(null)

  const signOut = useCallback(
    (why?: string) => {
      window.sessionStorage.removeItem(STORAGE_KEY)
      client.clear()
      setKey(null)
      setPending(null)
      setMessage(why ?? null)
    },
    [client],
  )
  // A key revoked or expired while the tab is open: back to sign-in, saying why. (A
  // subscription, not a ref the cache reads: refs are not to be written during render.)
  useEffect(
    () =>
      client.getQueryCache().subscribe((event) => {
        if (event.type === 'updated' && event.action.type === 'error' && event.action.error instanceof ApiError && event.action.error.status === 401)
          signOut('Your API key is no longer accepted (revoked or expired). Sign in with a current key.')
      }),
    [client, signOut],
  )
  const onValid = useCallback(
    (k: string, filters: FilterValues) => {
      // The check's answer is the app's first query too: no second round trip.
      client.setQueryData([k.slice(-8), '/filters', ''], filters)
      window.sessionStorage.setItem(STORAGE_KEY, k)
      setKey(k)
      setPending(null)
      setMessage(null)
    },
    [client],
  )
  const onInvalid = useCallback((why: string) => {
    window.sessionStorage.removeItem(STORAGE_KEY)
    setPending(null)
    setMessage(why)
  }, [])

  const session = useMemo(() => (key ? { key, signOut } : null), [key, signOut])

  if (!key && pending) return <Verify candidate={pending} onValid={onValid} onInvalid={onInvalid} />
  if (!session) return <SignIn message={message} onSubmit={(k) => setPending(k)} />
  return (
    <QueryClientProvider client={client}>
      <SessionContext.Provider value={session}>
        <Shell />
      </SessionContext.Provider>
    </QueryClientProvider>
  )
}

/** Checks a key against /filters (any read key may call it) before keeping it. */
function Verify({ candidate, onValid, onInvalid }: { candidate: string; onValid: (key: string, filters: FilterValues) => void; onInvalid: (message: string) => void }) {
  useEffect(() => {
    let live = true
    apiGet<FilterValues>(candidate, '/filters').then(
      (filters) => live && onValid(candidate, filters),
      (error: unknown) => {
        if (!live) return
        if (error instanceof ApiError && error.status === 401) onInvalid('That API key was not accepted: it is unknown, revoked, expired or mistyped. Paste a current key (bvk_…).')
        else if (error instanceof ApiError && error.status === 403)
          onInvalid('That key cannot read analytics: it lacks the read:analytics scope. Create a key with that scope (beacon key create --scopes read:analytics).')
        else onInvalid(error instanceof Error ? error.message : 'Signing in failed; try again.')
      },
    )
    return () => {
      live = false
    }
  }, [candidate, onValid, onInvalid])
  return <Loading label="Signing in…" />
}

function SignIn({ message, onSubmit }: { message: string | null; onSubmit: (key: string) => void }) {
  const [value, setValue] = useState('')
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (value.trim()) onSubmit(value.trim())
  }
  return (
    <main className="signin">
      <h1>Beacon</h1>
      <p>AI brand visibility analytics. Sign in with an API key of your workspace.</p>
      {message && (
        <p className="state error" role="alert" data-testid="signin-error">
          {message}
        </p>
      )}
      <form onSubmit={submit}>
        <label htmlFor="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder="bvk_…"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          required
        />
        <button type="submit">Sign in</button>
      </form>
      <p className="hint">
        The key stays in this browser tab only (session storage). <code>npm start</code> prints a link that signs in to the demo workspace.
      </p>
    </main>
  )
}

function Shell() {
  const { pathname } = useLocation()
  const route = matchRoute(pathname)
  const [menuOpen, setMenuOpen] = useState(false)
  const page = route.page
  return (
    <div className="shell">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="logo">Beacon</span>
        <button type="button" className="menu" aria-expanded={menuOpen} aria-controls="nav" onClick={() => setMenuOpen(!menuOpen)}>
          Menu
        </button>
        <SignOutButton />
      </header>
      <nav id="nav" className={menuOpen ? 'open' : ''} aria-label="Pages" onClick={() => setMenuOpen(false)}>
        <ul>
          {NAV.map(([to, label, name]) => (
            <li key={to}>
              <Link to={to} aria-current={page === name ? 'page' : undefined}>
                {label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        <DemoBanner />
        <Suspense fallback={<Loading />}>
          <Page page={page} id={route.id} sub={route.sub} />
        </Suspense>
      </main>
    </div>
  )
}

function SignOutButton() {
  return (
    <SessionContext.Consumer>
      {(session) => (
        <button type="button" className="signout" onClick={() => session?.signOut()}>
          Sign out
        </button>
      )}
    </SessionContext.Consumer>
  )
}

function Page({ page, id, sub }: { page: string; id: string | null; sub: string | null }) {
  switch (page) {
    case 'overview':
      return <Overview />
    case 'brands':
      return <Brands id={id} />
    case 'prompts':
      return <Prompts id={id} />
    case 'sources':
      return <Sources />
    case 'searches':
      return <Searches />
    case 'answers':
      return <Answers id={id} />
    case 'aio':
      return <Aio />
    case 'exports':
      return <Exports />
    case 'collection':
      return <Collection />
    case 'settings':
      return <Settings tab={id ?? 'brands'} sub={sub} />
    case 'start':
      return <GuidedStart />
    default:
      return (
        <div className="state empty">
          <h1>Page not found</h1>
          <p>
            <Link to="/">Go to the overview</Link>
          </p>
        </div>
      )
  }
}
