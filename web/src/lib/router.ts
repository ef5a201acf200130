// A minimal router over the History API: the path is the page, the query the view state.
// Every change is a history entry, so back and forward restore filters and pages.
import { useSyncExternalStore, type MouseEvent } from 'react'

const NAVIGATE = 'beacon:navigate'

function subscribe(callback: () => void): () => void {
  window.addEventListener('popstate', callback)
  window.addEventListener(NAVIGATE, callback)
  return () => {
    window.removeEventListener('popstate', callback)
    window.removeEventListener(NAVIGATE, callback)
  }
}

const snapshot = () => window.location.pathname + window.location.search

export function useLocation(): { pathname: string; search: string } {
  const href = useSyncExternalStore(subscribe, snapshot)
  const index = href.indexOf('?')
  return index < 0 ? { pathname: href, search: '' } : { pathname: href.slice(0, index), search: href.slice(index) }
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (to === snapshot()) return
  if (options.replace) window.history.replaceState(null, '', to)
  else window.history.pushState(null, '', to)
  window.dispatchEvent(new Event(NAVIGATE))
}

/** onClick for links: plain clicks stay in the app, modified clicks open normally. */
export function linkHandler(to: string) {
  return (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    event.preventDefault()
    navigate(to)
    window.scrollTo(0, 0)
  }
}
