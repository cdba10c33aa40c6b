import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Parley } from './api.js';
import type { Credentials } from './session.js';

export interface Session {
  credentials: Credentials;
  client: Parley;
}

export const SessionContext = createContext<Session | undefined>(undefined);

/** The signed-in session; pages are only rendered inside one. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in page');
  return session;
}
