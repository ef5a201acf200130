// While `beacon serve --demo` is still writing the demo workspace (it does so after the
// server started listening), a banner says how far it is, and the pages re-read their data
// every few seconds so the charts fill in. GET /demo-status answers 404 without --demo: no banner.
import { useEffect } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'

interface DemoStatus {
  state: 'building' | 'ready' | 'failed'
  done: number
  total: number
}

const REFRESH_MS = 3_000

async function fetchDemoStatus(): Promise<DemoStatus | null> {
  const response = await fetch('/demo-status', { headers: { accept: 'application/json' } })
  return response.ok ? ((await response.json()) as DemoStatus) : null
}

export function DemoBanner() {
  const queryClient = useQueryClient()
  const { data } = useQuery({
    queryKey: ['demo-status'],
    queryFn: fetchDemoStatus,
    refetchInterval: (query) => (query.state.data?.state === 'building' ? REFRESH_MS : false),
  })
  const building = data?.state === 'building'
  useEffect(() => {
    // Each new reading (and the last, "ready") refreshes the pages' data.
    if (data) void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== 'demo-status' })
  }, [data, queryClient])
  if (!data || data.state === 'ready') return null
  const percent = data.total > 0 ? Math.floor((data.done / data.total) * 100) : 0
  return (
    <div className="demo-banner" role="status">
      {building
        ? `Building the demo workspace: ${data.done.toLocaleString()} of ${data.total > 0 ? data.total.toLocaleString() : '…'} answers and AI overviews stored (${percent}%). The numbers fill in as they arrive.`
        : 'Building the demo workspace failed; the terminal running Beacon says why.'}
    </div>
  )
}
