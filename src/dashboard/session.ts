/**
 * The token of this browser tab. Kept in `sessionStorage` only: it ends with the tab, is never
 * written to `localStorage`, cookies or the URL. One token per person: what it may do is asked
 * from the server (`POST /api/admin/whoami`), never a second token.
 */

const TOKEN_KEY = 'shopAdmin.adminToken'

export function adminToken(): string | null {
  return sessionStorage.getItem(TOKEN_KEY)
}

export function setAdminToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token)
}

/** Sign out: forgets the token. */
export function clearSession(): void {
  sessionStorage.removeItem(TOKEN_KEY)
}
