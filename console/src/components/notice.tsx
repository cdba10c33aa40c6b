/** An error from the API, announced to screen readers as it appears. */
export function ErrorNotice({ error }: { error: string | undefined }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {error}
    </p>
  );
}
