/**
 * The tokens of this browser tab. Kept in `sessionStorage` only: they end with the tab, are never
 * written to `localStorage`, cookies or the URL.
 */

const ADMIN_KEY = 'shopAdmin.adminToken'
const PREORDER_KEY = 'shopAdmin.preorderToken'

export function adminToken(): string | null {
  return sessionStorage.getItem(ADMIN_KEY)
}

export function setAdminToken(token: string): void {
  sessionStorage.setItem(ADMIN_KEY, token)
}

/** The separate PREORDER_API_TOKEN, when the staff member was asked for one. */
export function preorderToken(): string | null {
  return sessionStorage.getItem(PREORDER_KEY)
}

export function setPreorderToken(token: string | null): void {
  if (token) sessionStorage.setItem(PREORDER_KEY, token)
  else sessionStorage.removeItem(PREORDER_KEY)
}

/** Sign out: forgets both tokens. */
export function clearSession(): void {
  sessionStorage.removeItem(ADMIN_KEY)
  sessionStorage.removeItem(PREORDER_KEY)
}
