export interface PageRequest {
  page: number
  perPage: number
}

/** The page when none is asked for; also the schemas' default. */
export const FIRST_PAGE = 1

/**
 * The page asked for. Ajv has already applied the schema defaults, so the fallbacks only
 * cover the optional types TypeBox gives defaulted parameters.
 */
export function pageRequest(query: { page?: number; per_page?: number }, defaultPerPage: number): PageRequest {
  return { page: query.page ?? FIRST_PAGE, perPage: query.per_page ?? defaultPerPage }
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
