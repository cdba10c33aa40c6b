import { useState } from 'preact/hooks';
import { connect, describeError } from '../api.js';
import { ErrorNotice } from '../components/notice.js';
import type { Credentials } from '../session.js';

/** The sign-in form: the key is checked against the API before it is kept. */
export function SignIn({ onSignedIn }: { onSignedIn: (credentials: Credentials) => void }) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const apiKey = String(form.get('apiKey') ?? '').trim();
    const adminToken = String(form.get('adminToken') ?? '').trim() || undefined;
    const credentials: Credentials = adminToken ? { apiKey, adminToken } : { apiKey };
    setBusy(true);
    setError(undefined);
    try {
      const client = connect(credentials);
      await client.dialogues.page({ limit: 1 });
      if (adminToken) await client.admin.listProjects();
      onSignedIn(credentials);
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="sign-in">
      <h1>Sign in to Parley</h1>
      <form onSubmit={submit}>
        <label for="api-key">API key</label>
        <input id="api-key" name="apiKey" type="password" autocomplete="off" required />
        <label for="admin-token">Admin token</label>
        <input
          id="admin-token"
          name="adminToken"
          type="password"
          autocomplete="off"
          aria-describedby="admin-token-hint"
        />
        <p id="admin-token-hint" class="hint">
          Optional: unlocks the admin pages.
        </p>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      <ErrorNotice error={error} />
    </section>
  );
}
