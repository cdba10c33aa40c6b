// The image's HEALTHCHECK: healthy while /readyz answers 200 (database reachable, migrations
// applied, not shutting down). Plain node, since the slim image has no curl.
const port = process.env.PORT || '3000';
try {
  const response = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(4000) });
  process.exit(response.ok ? 0 : 1);
} catch {
  process.exit(1);
}
