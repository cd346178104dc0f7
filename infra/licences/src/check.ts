import type { LicenceException, LicencePolicy } from './policy.ts';

/** One production dependency as the inventory lists it. */
export interface InventoryEntry {
  name: string;
  versions: string[];
  /** What the package declares: an SPDX expression, a URL, or "Unknown" when it declares nothing. */
  licence: string;
  homepage?: string;
}

export interface Violation {
  package: string;
  licence: string;
  problem: string;
}

type Token = { kind: 'id'; value: string } | { kind: 'and' | 'or' | 'open' | 'close' };

/** SPDX expression tokens; `X WITH Y` stays one identifier (an exception clause needs its own review). */
function tokenize(expression: string): Token[] | undefined {
  const words = expression.replace(/\(/g, ' ( ').replace(/\)/g, ' ) ').trim().split(/\s+/);
  const tokens: Token[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === '(') tokens.push({ kind: 'open' });
    else if (word === ')') tokens.push({ kind: 'close' });
    else if (/^and$/i.test(word)) tokens.push({ kind: 'and' });
    else if (/^or$/i.test(word)) tokens.push({ kind: 'or' });
    else if (/^[A-Za-z0-9.+-]+$/.test(word)) {
      if (/^with$/i.test(words[i + 1] ?? '') && words[i + 2]) {
        tokens.push({ kind: 'id', value: `${word} WITH ${words[i + 2]}` });
        i += 2;
      } else tokens.push({ kind: 'id', value: word });
    } else return undefined; // a URL, a sentence: not an SPDX expression
  }
  return tokens;
}

/**
 * Whether an SPDX expression is satisfied by the allowed identifiers: `A OR B` needs one of them (we may
 * choose), `A AND B` both. Anything that is not a well-formed expression (a URL, "Unknown", "SEE LICENSE IN
 * …") is not allowed: a person must read it and add an exception.
 */
export function licenceAllowed(expression: string, allowed: ReadonlySet<string>): boolean {
  const tokens = tokenize(expression);
  if (!tokens || tokens.length === 0) return false;
  let at = 0;
  // expression := term (OR term)*; term := factor (AND factor)*; factor := id | ( expression )
  const factor = (): boolean | undefined => {
    const token = tokens[at++];
    if (token?.kind === 'id') return allowed.has(token.value);
    if (token?.kind !== 'open') return undefined;
    const inner = orExpression();
    return tokens[at++]?.kind === 'close' ? inner : undefined;
  };
  const term = (): boolean | undefined => {
    let value = factor();
    while (value !== undefined && tokens[at]?.kind === 'and') {
      at++;
      const next = factor();
      value = next === undefined ? undefined : value && next;
    }
    return value;
  };
  const orExpression = (): boolean | undefined => {
    let value = term();
    while (value !== undefined && tokens[at]?.kind === 'or') {
      at++;
      const next = term();
      value = next === undefined ? undefined : value || next;
    }
    return value;
  };
  const result = orExpression();
  return result === true && at === tokens.length;
}

const matches = (exception: LicenceException, name: string) =>
  exception.package.endsWith('*') ? name.startsWith(exception.package.slice(0, -1)) : name === exception.package;

/** The exception that accepts this package under this licence, if any. */
export function exceptionFor(policy: LicencePolicy, entry: InventoryEntry): LicenceException | undefined {
  return policy.exceptions.find((exception) => matches(exception, entry.name) && exception.licence === entry.licence);
}

/**
 * What is wrong with an inventory under a policy: each package whose licence is neither allowed nor
 * excepted (an exception for another licence than the package now declares does not count), and each
 * exception no package needs any more (so the list of exceptions stays true).
 */
export function checkInventory(entries: InventoryEntry[], policy: LicencePolicy): Violation[] {
  const allowed = new Set(policy.allowed.map((licence) => licence.id));
  const violations: Violation[] = [];
  for (const entry of entries) {
    if (licenceAllowed(entry.licence, allowed) || exceptionFor(policy, entry)) continue;
    const other = policy.exceptions.find((exception) => matches(exception, entry.name));
    violations.push({
      package: `${entry.name}@${entry.versions.join(', ')}`,
      licence: entry.licence,
      problem: other
        ? `its exception is for ${other.licence}, but it now declares ${entry.licence}: review it again`
        : `${entry.licence} is not on the allow-list: replace the package, or add an exception with the reason to infra/licences/src/policy.ts`,
    });
  }
  for (const exception of policy.exceptions) {
    if (!entries.some((entry) => matches(exception, entry.name) && entry.licence === exception.licence))
      violations.push({
        package: exception.package,
        licence: exception.licence,
        problem: 'exception for a package no longer used: remove it',
      });
  }
  return violations;
}
