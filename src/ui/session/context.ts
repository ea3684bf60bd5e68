/** How components reach the page's session (made once in main.tsx). */
import { createContext, useContext } from 'react';
import type { Session } from '../session';

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession: no session; render the app inside <SessionContext value={session}>');
  return session;
}
