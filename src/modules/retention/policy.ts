import type { RetentionPolicy, RetentionRules } from '../../core/context.js';
import { DAY_MS } from '../../core/iso-date.js';
import type { NamespaceScope } from '../../db/retention-sql.js';
import type { RetentionPolicyInput } from './schemas.js';

// D151: a retention policy as stored and as applied: merged like the other settings (null
// removes), then split into the rule sets the sweeper and the preview apply one by one.

const RULE_NAMES = ['messageDays', 'idleDialogueDays', 'memoryDays'] as const;

/** The given rules over the current ones: a number sets a rule, null removes it, absence keeps it. */
function mergeRules(
  current: RetentionRules,
  change: Omit<RetentionPolicyInput, 'namespaces'>,
): RetentionRules {
  const merged: RetentionRules = {};
  for (const name of RULE_NAMES) {
    const value = change[name] === undefined ? current[name] : change[name];
    if (value !== null && value !== undefined) merged[name] = value;
  }
  return merged;
}

/**
 * D151: a change of the policy merged into the stored one. `null` removes the policy; in it, null
 * removes a rule, and a namespace given replaces that namespace's rules (null removes them).
 * Undefined when nothing is left.
 */
export function mergeRetention(
  current: RetentionPolicy | undefined,
  change: RetentionPolicyInput | null,
): RetentionPolicy | undefined {
  if (change === null) return undefined;
  const merged: RetentionPolicy = mergeRules(current ?? {}, change);
  const namespaces = { ...current?.namespaces };
  if (change.namespaces === null) for (const name of Object.keys(namespaces)) delete namespaces[name];
  for (const [name, rules] of Object.entries(change.namespaces ?? {})) {
    if (rules === null) delete namespaces[name];
    else namespaces[name] = mergeRules({}, rules);
  }
  if (Object.keys(namespaces).length > 0) merged.namespaces = namespaces;
  return Object.keys(merged).length > 0 ? merged : undefined;
}

/** The rules that hold in some namespaces: a namespace's own, or the project's everywhere else. */
export interface RuleSet {
  /** The namespace whose own rules these are; null for the project's. */
  namespace: string | null;
  scope: NamespaceScope;
  rules: RetentionRules;
}

/** D151: a namespace's own rules replace the project's there ("the override wins", whole). */
export function ruleSetsOf(policy: RetentionPolicy): RuleSet[] {
  const { namespaces = {}, ...projectRules } = policy;
  const own = Object.keys(namespaces);
  return [
    { namespace: null, scope: { except: own }, rules: projectRules },
    ...own.map((namespace) => ({ namespace, scope: { namespace }, rules: namespaces[namespace]! })),
  ];
}

/** The moment before which an object is older than `days`, measured from `now`. */
export const cutoffOf = (days: number, now: number): Date => new Date(now - days * DAY_MS);
