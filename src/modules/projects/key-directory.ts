// D76: what this instance knows of the API keys, by the hash the database keeps.
//
// An entry says "this key belonged to that project": it is trusted without asking the database
// for `trustMs` after it was verified (the key cache, only key -> project id and key id: settings
// are always read fresh), and after that it only tells the authentication that the key is worth
// a lookup when the caller's address is past its failure limit. A key the directory has never
// seen is then refused without a lookup, which is what makes a flood of invented keys cost the
// database nothing; keeping every real key in it is what keeps valid keys from being held back.

interface KnownKey {
  projectId: string;
  keyId: string;
  /** When the database last said the key was active (ms since the epoch; 0: loaded, not verified). */
  verifiedAt: number;
}

interface ActiveKey {
  keyHash: string;
  projectId: string;
  keyId: string;
}

/** When a lookup began: what `verified` needs to keep a verification honest. */
interface LookupMark {
  at: number;
  revocations: number;
}

interface KeyDirectoryOptions {
  /** AUTH_CACHE_TTL_MS: how long a verified key is trusted without a lookup; 0 never. */
  trustMs: number;
  /** The shortest time between two throttled reloads of the active keys. */
  reloadIntervalMs: number;
  now?: () => number;
}

export function createKeyDirectory({ trustMs, reloadIntervalMs, now = Date.now }: KeyDirectoryOptions) {
  const entries = new Map<string, KnownKey>();
  let lastThrottledReload = Number.NEGATIVE_INFINITY;
  let reloading: Promise<void> | undefined;
  let revocations = 0;

  return {
    get: (keyHash: string): KnownKey | undefined => entries.get(keyHash),

    /** Whether `entry` may be used without asking the database (verified less than trustMs ago). */
    trusted: (entry: KnownKey): boolean => now() - entry.verifiedAt < trustMs,

    /** Taken before a lookup, handed to `verified` after it. */
    mark: (): LookupMark => ({ at: now(), revocations }),

    /**
     * The database said the key is active, in a lookup that began at `since`. The key is trusted
     * from when the lookup began, not ended (the answer may predate a revocation by the lookup's
     * length), and not at all when this instance revoked a key meanwhile: the lookup may have
     * read that key before its revocation, and the revoking instance must refuse it at once.
     */
    verified(keyHash: string, owner: { projectId: string; keyId: string }, since?: LookupMark): void {
      if (since && since.revocations !== revocations) return;
      const verifiedAt = since?.at ?? now();
      entries.set(keyHash, { projectId: owner.projectId, keyId: owner.keyId, verifiedAt });
    },

    /** A lookup found nothing: the key is unknown or was revoked elsewhere. */
    forget(keyHash: string): void {
      entries.delete(keyHash);
    },

    /** This instance revoked the key: refused from now on, lookups in flight included. */
    revoked(keyHash: string): void {
      revocations++;
      entries.delete(keyHash);
    },

    /** This instance revoked every key of a project (its erasure, D74): as `revoked`, for each. */
    revokedProject(projectId: string): void {
      revocations++;
      for (const [keyHash, entry] of entries) if (entry.projectId === projectId) entries.delete(keyHash);
    },

    /**
     * Replaces what is known by the active keys `load` reads. Concurrent calls share one load; a
     * throttled call (the default) loads at most once per reload interval. An entry verified
     * after the load began is kept: the load may not have seen it.
     */
    async reload(load: () => Promise<ActiveKey[]>, { throttled = true } = {}): Promise<void> {
      if (reloading) return reloading;
      const startedAt = now();
      if (throttled) {
        if (startedAt - lastThrottledReload < reloadIntervalMs) return;
        lastThrottledReload = startedAt;
      }
      reloading = (async () => {
        const active = await load();
        const seen = new Set<string>();
        for (const key of active) {
          seen.add(key.keyHash);
          const known = entries.get(key.keyHash);
          if (known?.keyId !== key.keyId || known.projectId !== key.projectId)
            entries.set(key.keyHash, { projectId: key.projectId, keyId: key.keyId, verifiedAt: 0 });
        }
        for (const [keyHash, entry] of entries) {
          if (!seen.has(keyHash) && entry.verifiedAt < startedAt) entries.delete(keyHash);
        }
      })().finally(() => {
        reloading = undefined;
      });
      return reloading;
    },
  };
}
