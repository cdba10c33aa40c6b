import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from '../../src/config.js';
import { runNode } from '../helpers/processes.js';

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      // A fresh `npm start` listens on loopback only; the image sets HOST=0.0.0.0.
      HOST: '127.0.0.1',
      DATA_DIR: './data',
      LOG_LEVEL: 'info',
      BODY_LIMIT_BYTES: 32 * 1024 * 1024,
      RATE_LIMIT_MAX: 600,
      RATE_LIMIT_WINDOW_SECONDS: 60,
      AUTH_FAILURE_LIMIT: 30,
      ADMIN_AUTH_FAILURE_LIMIT: 30,
      AUTH_CACHE_TTL_MS: 5000,
      EMBEDDINGS: 'local',
      // D77: a request waits on a lost database for less than 10 s.
      DATABASE_CONNECT_TIMEOUT_MS: 3_000,
      DATABASE_STATEMENT_TIMEOUT_MS: 5_000,
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.CORS_ORIGINS).toBeUndefined();
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('names every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud', BOOTSTRAP_API_KEY: 'short' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['PORT', 'DATABASE_URL', 'LOG_LEVEL', 'BOOTSTRAP_API_KEY'])
      expect(problems).toContain(name);
  });

  it('takes 0 for no bound on database waits, and refuses a negative one', () => {
    const config = loadConfig({ DATABASE_CONNECT_TIMEOUT_MS: '0', DATABASE_STATEMENT_TIMEOUT_MS: '0' });
    expect([config.DATABASE_CONNECT_TIMEOUT_MS, config.DATABASE_STATEMENT_TIMEOUT_MS]).toEqual([0, 0]);
    expect(() => loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '-1' })).toThrow(ConfigError);
  });

  it('refuses a failure limit of 0 and accepts a key cache of 0 (D76)', () => {
    expect(() => loadConfig({ AUTH_FAILURE_LIMIT: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ ADMIN_AUTH_FAILURE_LIMIT: '-1' })).toThrow(ConfigError);
    expect(loadConfig({ AUTH_CACHE_TTL_MS: '0' }).AUTH_CACHE_TTL_MS).toBe(0);
  });

  it('reads CORS_ORIGINS as * or a list of origins, and refuses anything that is not an origin', () => {
    expect(loadConfig({ CORS_ORIGINS: '*' }).CORS_ORIGINS).toBe('*');
    expect(
      loadConfig({ CORS_ORIGINS: 'https://app.example.com, http://localhost:5173' }).CORS_ORIGINS,
    ).toEqual(['https://app.example.com', 'http://localhost:5173']);
    for (const bad of ['https://app.example.com/', 'app.example.com', 'ftp://x.example', ' , ']) {
      expect(() => loadConfig({ CORS_ORIGINS: bad })).toThrow(/CORS_ORIGINS/);
    }
  });

  it('.env.example lists every variable with its default', () => {
    const lines = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('#'));
    const example = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    expect(Object.keys(example).sort()).toEqual([...CONFIG_VARIABLES].sort());
    // Copied as it is, the file configures exactly the defaults.
    expect(loadConfig(example)).toEqual(loadConfig({}));
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' }).PORT).toBe(3000);
  });

  it('takes any positive IDEMPOTENCY_TTL_HOURS, fractions too (D75)', () => {
    expect(loadConfig({}).IDEMPOTENCY_TTL_HOURS).toBe(24);
    expect(loadConfig({ IDEMPOTENCY_TTL_HOURS: '0.25' }).IDEMPOTENCY_TTL_HOURS).toBe(0.25);
    expect(loadConfig({ IDEMPOTENCY_TTL_HOURS: '168' }).IDEMPOTENCY_TTL_HOURS).toBe(168);
    for (const bad of ['0', '-1', 'a day', 'Infinity'])
      expect(() => loadConfig({ IDEMPOTENCY_TTL_HOURS: bad }), bad).toThrow(/IDEMPOTENCY_TTL_HOURS/);
  });

  it('refuses a bootstrap key with invisible characters (D9)', () => {
    expect(() => loadConfig({ BOOTSTRAP_API_KEY: 'has a space in it ok' })).toThrow(ConfigError);
    expect(loadConfig({ BOOTSTRAP_API_KEY: 'sixteen-chars-ok' }).BOOTSTRAP_API_KEY).toBe('sixteen-chars-ok');
  });

  it('stops the server with exit code 2 and a message naming the variable', async () => {
    const result = await runNode(['src/server.ts'], { env: { PORT: 'not-a-port', DATA_DIR: 'memory://' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('PORT');
  });
});
