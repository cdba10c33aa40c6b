// The image's HEALTHCHECK: healthy while /readyz answers 200 (database reachable, migrations
// applied, not shutting down). Plain node, since the slim image has no curl. With TLS_CERT_FILE the
// server speaks HTTPS (D60); the check asks its own process, so the certificate is not verified.
import http from 'node:http';
import https from 'node:https';

const port = process.env.PORT || '3000';
const tls = Boolean(process.env.TLS_CERT_FILE);
const request = (tls ? https : http).get(
  `${tls ? 'https' : 'http'}://127.0.0.1:${port}/readyz`,
  { timeout: 4000, rejectUnauthorized: false },
  (response) => process.exit(response.statusCode === 200 ? 0 : 1),
);
request.on('timeout', () => process.exit(1));
request.on('error', () => process.exit(1));
