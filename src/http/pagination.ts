export interface PageRequest {
  page: number
  perPage: number
}

export const pageOffset = ({ page, perPage }: PageRequest): number => (page - 1) * perPage

export function totalPages(totalItems: number, perPage: number): number {
  return Math.ceil(totalItems / perPage)
}

export function paginationWithNav(request: PageRequest, totalItems: number) {
  const pages = totalPages(totalItems, request.perPage)
  return {
    page: request.page,
    per_page: request.perPage,
    total_items: totalItems,
    total_pages: pages,
    has_next: request.page < pages,
    has_prev: request.page > 1,
  }
}

export function paginationPlain(request: PageRequest, totalItems: number) {
  return { page: request.page, per_page: request.perPage, total_items: totalItems, total_pages: totalPages(totalItems, request.perPage) }
}

export function paginationMinimal(request: PageRequest, totalItems: number) {
  return { page: request.page, per_page: request.perPage, total_items: totalItems }
}
