import { useMemo, useState } from 'preact/hooks';
import { Link, Redirect, Route, Router, Switch } from 'wouter-preact';
import { connect } from './api.js';
import { AdminPage } from './pages/admin.js';
import { DialoguePage } from './pages/dialogue.js';
import { DialoguesPage } from './pages/dialogues.js';
import { ErasuresPage } from './pages/erasures.js';
import { EventsPage } from './pages/events.js';
import { MemoriesPage } from './pages/memories.js';
import { SearchPage } from './pages/search.js';
import { SignIn } from './pages/sign-in.js';
import { WebhooksPage } from './pages/webhooks.js';
import { type Credentials, forgetCredentials, loadCredentials, saveCredentials } from './session.js';
import { type Session, SessionContext } from './session-context.js';

const PAGES = [
  { href: '/dialogues', label: 'Dialogues' },
  { href: '/memories', label: 'Memories' },
  { href: '/search', label: 'Search' },
  { href: '/events', label: 'Events' },
  { href: '/webhooks', label: 'Webhooks' },
  { href: '/erasures', label: 'Erasures' },
];

function Navigation({ admin, onSignOut }: { admin: boolean; onSignOut: () => void }) {
  return (
    <header class="top">
      <span class="brand">Parley console</span>
      <nav aria-label="Pages">
        <ul>
          {[...PAGES, ...(admin ? [{ href: '/admin', label: 'Admin' }] : [])].map((page) => (
            <li key={page.href}>
              <Link href={page.href} className={(active: boolean) => (active ? 'active' : '')}>
                {page.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <button type="button" class="sign-out" onClick={onSignOut}>
        Sign out
      </button>
    </header>
  );
}

function Pages({ admin }: { admin: boolean }) {
  return (
    <Switch>
      <Route path="/dialogues" component={DialoguesPage} />
      <Route path="/dialogues/:id">{(params) => <DialoguePage id={params.id} />}</Route>
      <Route path="/memories" component={MemoriesPage} />
      <Route path="/search" component={SearchPage} />
      <Route path="/events" component={EventsPage} />
      <Route path="/webhooks" component={WebhooksPage} />
      <Route path="/erasures" component={ErasuresPage} />
      {admin && <Route path="/admin" component={AdminPage} />}
      <Route path="/">
        <Redirect to="/dialogues" replace />
      </Route>
      <Route>
        <h1>Not found</h1>
        <p>
          This page does not exist. <Link href="/dialogues">Go to the dialogues</Link>.
        </p>
      </Route>
    </Switch>
  );
}

export function App() {
  const [credentials, setCredentials] = useState<Credentials | undefined>(loadCredentials);
  const session = useMemo<Session | undefined>(
    () => (credentials ? { credentials, client: connect(credentials) } : undefined),
    [credentials],
  );
  return (
    <Router base="/console">
      {session ? (
        <SessionContext.Provider value={session}>
          <Navigation
            admin={Boolean(session.credentials.adminToken)}
            onSignOut={() => {
              forgetCredentials();
              setCredentials(undefined);
            }}
          />
          <main>
            <Pages admin={Boolean(session.credentials.adminToken)} />
          </main>
        </SessionContext.Provider>
      ) : (
        // The address stays as it is: after sign-in the shared or reloaded page opens.
        <main>
          <SignIn
            onSignedIn={(signedIn) => {
              saveCredentials(signedIn);
              setCredentials(signedIn);
            }}
          />
        </main>
      )}
    </Router>
  );
}
