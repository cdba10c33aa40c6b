// Credentials live in sessionStorage only (never a URL, a cookie or localStorage): they go when
// the tab closes or on Sign out.

export interface Credentials {
  apiKey: string;
  /** Unlocks the admin pages. */
  adminToken?: string;
}

const KEY = 'parley.console.credentials';

export function loadCredentials(): Credentials | undefined {
  const text = window.sessionStorage.getItem(KEY);
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as Credentials;
    return typeof value.apiKey === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

export function saveCredentials(credentials: Credentials): void {
  window.sessionStorage.setItem(KEY, JSON.stringify(credentials));
}

export function forgetCredentials(): void {
  window.sessionStorage.removeItem(KEY);
}
