/**
 * The platform's MQTT access list as rules of one account, for brokers that take them per client instead of from
 * Mosquitto's `acl_file` (EMQX: the ACL in the answer of its HTTP authentication, docs/security.md).
 *
 * The source stays the Mosquitto access list that `baseAclLines` and a gateway's `speaksForRules` make, read with
 * Mosquitto's meaning: `pattern` lines apply to every account (`%u` is its username), `topic` lines to the account of
 * the `user` line above them, and a `topic` without an access is read and write. Both brokers therefore enforce one
 * list.
 */

export type AclAccess = 'read' | 'write' | 'readwrite';

export interface AclRule {
  access: AclAccess;
  /** An MQTT topic filter (`+` and `#` wildcards). */
  filter: string;
}

const ACCESSES = new Set<string>(['read', 'write', 'readwrite']);

/** A rule from the words after `topic` or `pattern`; a pattern's `%u` becomes `username`. */
function ruleOf(words: string[], username: string | null): AclRule | null {
  // `topic [access] filter` or `pattern [access] filter`: the filter is the rest of the line (it may hold spaces).
  const [first, ...rest] = words;
  const access = ACCESSES.has(first) ? (first as AclAccess) : 'readwrite';
  const written = (ACCESSES.has(first) ? rest : words).join(' ');
  const filter = username === null ? written : written.replaceAll('%u', username);
  return filter ? { access, filter } : null;
}

/**
 * The rules that apply to `username` in `aclLines` (a Mosquitto access list), followed by `ownRules` (`topic …` lines
 * of that account alone, such as a lamp gateway's devices).
 */
export function rulesForUser(aclLines: readonly string[], username: string, ownRules: readonly string[] = []): AclRule[] {
  const rules: AclRule[] = [];
  let user: string | null = null;
  const read = (line: string, forUser: string | null) => {
    const words = line.trim().split(/\s+/);
    const [keyword, ...rest] = words;
    if (!keyword || keyword.startsWith('#')) return;
    if (keyword === 'user') user = rest.join(' ');
    else if (keyword === 'pattern') {
      const rule = ruleOf(rest, username);
      if (rule) rules.push(rule);
    } else if (keyword === 'topic' && forUser === username) {
      const rule = ruleOf(rest, null);
      if (rule) rules.push(rule);
    }
  };
  for (const line of aclLines) read(line, user);
  for (const line of ownRules) read(line, username);
  return rules;
}

/**
 * Whether the filter `granted` covers `requested` (a topic to publish to, or a filter to subscribe to): every topic
 * that `requested` matches is matched by `granted`. A wildcard asked for is covered only by a wildcard granted, so a
 * grant of `city/v1/lamp/A/cmd` does not cover a subscription to `city/v1/lamp/+/cmd`.
 */
export function filterCovers(granted: string, requested: string): boolean {
  const g = granted.split('/');
  const r = requested.split('/');
  // Wildcards at the first level do not match topics starting with `$` (MQTT 3.1.1, 4.7.2).
  if (r[0].startsWith('$') && (g[0] === '+' || g[0] === '#')) return false;
  for (let i = 0; i < g.length; i++) {
    if (g[i] === '#') return true;
    if (i >= r.length) return false;
    if (r[i] === '#') return false;
    if (g[i] === '+') continue;
    if (g[i] !== r[i]) return false;
  }
  return g.length === r.length;
}

/** Whether `rules` let an account publish to a topic (`write`) or subscribe to a filter (`read`). */
export function aclAllows(rules: readonly AclRule[], access: 'read' | 'write', topic: string): boolean {
  return rules.some((rule) => (rule.access === access || rule.access === 'readwrite') && filterCovers(rule.filter, topic));
}

/** An entry of EMQX's ACL as its HTTP authentication answers it (the format of EMQX 5.5 and later). */
export interface EmqxAclEntry {
  permission: 'allow' | 'deny';
  action: 'publish' | 'subscribe' | 'all';
  topic: string;
}

const EMQX_ACTION: Record<AclAccess, EmqxAclEntry['action']> = { read: 'subscribe', write: 'publish', readwrite: 'all' };

/**
 * An account's rules as EMQX's ACL: what the rules allow, then everything else denied (whatever the cluster's
 * `authorization.no_match` says). EMQX matches a subscription's filter against a rule's filter as `filterCovers` does.
 */
export function emqxAcl(rules: readonly AclRule[]): EmqxAclEntry[] {
  return [
    ...rules.map((rule): EmqxAclEntry => ({ permission: 'allow', action: EMQX_ACTION[rule.access], topic: rule.filter })),
    { permission: 'deny', action: 'all', topic: '#' },
  ];
}
