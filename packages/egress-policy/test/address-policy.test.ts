import dns from 'node:dns';
import { describe, expect, it } from 'vitest';
import { isPublicAddress, type LookupFn, parseAllowlist, resolveTarget } from '../src/address-policy.ts';

// Never lets a test name reach a real resolver; unknown names fail like NXDOMAIN.
const fakeLookup: LookupFn = async (hostname) => {
  const table: Record<string, { address: string; family: number }[]> = {
    'rebind.test': [{ address: '127.0.0.1', family: 4 }],
    'public.test': [{ address: '93.184.216.34', family: 4 }],
    'mixed.test': [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ],
    'mapped.test': [{ address: '::ffff:169.254.169.254', family: 6 }],
    'allowed.test': [{ address: '127.0.0.1', family: 4 }],
    'empty.test': [],
  };
  const hit = table[hostname];
  if (hit) return hit;
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

describe('isPublicAddress', () => {
  const blocked = [
    '127.0.0.1',
    '127.255.255.254',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '0.1.2.3',
    '255.255.255.255',
    '224.0.0.1',
    '240.0.0.1',
    '198.18.0.1',
    '192.0.2.1',
    '::',
    '::1',
    '[::1]',
    'fc00::1',
    'fd12::1',
    'fe80::1',
    'fe80::1%eth0',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::7f00:1',
    '64:ff9b::7f00:1',
    '2002:7f00:1::1',
    '2001:db8::1',
    'not-an-ip',
    '2130706433',
    '0x7f.1',
    '',
  ];
  const allowed = ['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8'];

  it.each(blocked)('refuses %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each(allowed)('accepts %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });
});

describe('parseAllowlist', () => {
  it('parses, lowercases, trims and canonicalises entries', () => {
    const set = parseAllowlist(' 127.0.0.1:4567, LocalHost:8080 ,,[::1]:9000,[0:0::1]:9001, ');
    expect([...set].sort()).toEqual(['127.0.0.1:4567', '[::1]:9000', '[::1]:9001', 'localhost:8080'].sort());
  });

  it('treats undefined and empty input as an empty allowlist', () => {
    expect(parseAllowlist(undefined).size).toBe(0);
    expect(parseAllowlist('').size).toBe(0);
    expect(parseAllowlist(' , ,').size).toBe(0);
  });

  it.each([
    'localhost',
    'localhost:',
    'localhost:0',
    'localhost:70000',
    'host:8o',
    '::1:9000',
    '[::1]9000',
    '[nope]:80',
    'a b:80',
    'http://x:80',
  ])('rejects %j naming the entry', (entry) => {
    expect(() => parseAllowlist(`127.0.0.1:1,${entry}`)).toThrow(entry.trim());
  });
});

describe('resolveTarget', () => {
  const allowlist = parseAllowlist('127.0.0.1:4567,allowed.test:8080,[::1]:9000');
  const opts = { allowlist, lookup: fakeLookup };

  it('refuses a hostname that resolves to loopback (rebinding)', async () => {
    const d = await resolveTarget('rebind.test', 80, opts);
    expect(d.allowed).toBe(false);
    expect(d).toEqual({
      allowed: false,
      cause: 'not-public',
      reason: 'rebind.test points to a private, loopback or reserved network',
      addresses: ['127.0.0.1'], // for the worker's log only
    });
  });

  it('allows a hostname that resolves to a public address and returns that address', async () => {
    expect(await resolveTarget('public.test', 443, opts)).toEqual({ allowed: true, address: '93.184.216.34', family: 4 });
  });

  it('refuses when any resolved address is non-public', async () => {
    const d = await resolveTarget('mixed.test', 443, opts);
    expect(d.allowed).toBe(false);
    if (!d.allowed) expect(d.reason).toBe('mixed.test points to a private, loopback or reserved network');
  });

  it('never puts an address in a refusal reason that the caller did not write (reasons reach API callers)', async () => {
    const IP = /\b\d{1,3}(?:\.\d{1,3}){3}\b|[0-9a-f]*::[0-9a-f:.]*/i;
    for (const host of ['rebind.test', 'mixed.test', 'mapped.test', 'nx.test', 'empty.test', '2130706433', '0x7f.1', '127.1']) {
      const d = await resolveTarget(host, 80, opts);
      expect(d.allowed, host).toBe(false);
      if (!d.allowed) expect(d.reason, host).not.toMatch(IP);
    }
    const literal = await resolveTarget('10.0.0.1', 80, opts);
    expect(literal).toEqual({ allowed: false, cause: 'not-public', reason: '10.0.0.1 is in a private, loopback or reserved network' });
  });

  it('judges IPv4-mapped answers as their IPv4 address', async () => {
    expect((await resolveTarget('mapped.test', 80, opts)).allowed).toBe(false);
  });

  it('says a name could not be resolved (not that its address is refused) on a failure or an empty answer', async () => {
    expect(await resolveTarget('nx.test', 80, opts)).toEqual({
      allowed: false,
      cause: 'unresolved',
      code: 'ENOTFOUND',
      reason: 'nx.test could not be resolved (ENOTFOUND)',
    });
    expect(await resolveTarget('empty.test', 80, opts)).toEqual({
      allowed: false,
      cause: 'unresolved',
      reason: 'empty.test resolved to no addresses',
    });
    // An allow-listed name that does not resolve says the same.
    const listed = await resolveTarget('nx.test', 81, { allowlist: parseAllowlist('nx.test:81'), lookup: fakeLookup });
    expect(listed).toMatchObject({ allowed: false, cause: 'unresolved', reason: 'nx.test could not be resolved (ENOTFOUND)' });
  });

  it('says so with the real resolver too (.invalid never resolves, RFC 6761)', async () => {
    const d = await resolveTarget('no-such-host.invalid', 80, { allowlist: new Set() });
    expect(d).toMatchObject({ allowed: false, cause: 'unresolved' });
    if (!d.allowed) expect(d.reason).toMatch(/^no-such-host\.invalid could not be resolved \(E[A-Z_]+\)$/);
  });

  it('admits a name that resolves to an allow-listed address:port, and connects to that address', async () => {
    // allowed.test and rebind.test both resolve to 127.0.0.1; 127.0.0.1:4567 is listed.
    expect(await resolveTarget('rebind.test', 4567, opts)).toEqual({ allowed: true, address: '127.0.0.1', family: 4 });
    expect((await resolveTarget('rebind.test', 4568, opts)).allowed).toBe(false);
    // Only the listed answer is ever dialled, whatever else the name resolves to.
    const twoFaced: LookupFn = async () => [
      { address: '::1', family: 6 },
      { address: '10.0.0.5', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ];
    expect(await resolveTarget('two.test', 4567, { allowlist, lookup: twoFaced })).toEqual({
      allowed: true,
      address: '127.0.0.1',
      family: 4,
    });
    // A numeric spelling of a listed address is that address.
    expect(await resolveTarget('2130706433', 4567, opts)).toEqual({ allowed: true, address: '127.0.0.1', family: 4 });
  });

  it('admits localhost and localhost. (the real resolver and /etc/hosts) when 127.0.0.1:port is listed', async () => {
    const real = { allowlist: parseAllowlist('127.0.0.1:18081') };
    for (const host of ['localhost', 'localhost.', 'LOCALHOST']) {
      expect(await resolveTarget(host, 18081, real), host).toEqual({ allowed: true, address: '127.0.0.1', family: 4 });
      expect((await resolveTarget(host, 18082, real)).allowed, host).toBe(false);
    }
  });

  it('admits 127.0.0.1 and ::1 on a port when localhost:port is listed, and nothing else of loopback', async () => {
    const byName = { allowlist: parseAllowlist('localhost:18081'), lookup: fakeLookup };
    for (const host of ['127.0.0.1', '[::1]', '::ffff:127.0.0.1', '2130706433']) {
      const d = await resolveTarget(host, 18081, byName);
      expect(d.allowed, host).toBe(true);
      if (d.allowed) expect(d.address, host).toMatch(/^(127\.0\.0\.1|::1)$/);
      expect((await resolveTarget(host, 18082, byName)).allowed, host).toBe(false);
    }
    for (const host of ['127.0.0.2', '10.0.0.1', '169.254.169.254', '0.0.0.0']) {
      expect((await resolveTarget(host, 18081, byName)).allowed, host).toBe(false);
    }
  });

  it('allows allow-listed host:port pairs only on that port', async () => {
    expect(await resolveTarget('127.0.0.1', 4567, opts)).toEqual({ allowed: true, address: '127.0.0.1', family: 4 });
    expect(await resolveTarget('[::1]', 9000, opts)).toEqual({ allowed: true, address: '::1', family: 6 });
    expect(await resolveTarget('ALLOWED.test', 8080, opts)).toEqual({ allowed: true, address: '127.0.0.1', family: 4 });
    expect((await resolveTarget('127.0.0.1', 4568, opts)).allowed).toBe(false);
    expect((await resolveTarget('allowed.test', 8081, opts)).allowed).toBe(false);
  });

  it('refuses private IP literals and bracketed mapped forms', async () => {
    for (const host of ['10.0.0.1', '169.254.169.254', '[::1]', '[::ffff:127.0.0.1]', '::ffff:7f00:1', '[fe80::1]']) {
      expect((await resolveTarget(host, 80, opts)).allowed, host).toBe(false);
    }
    expect(await resolveTarget('[::ffff:8.8.8.8]', 80, opts)).toEqual({ allowed: true, address: '8.8.8.8', family: 4 });
  });

  it('refuses invalid ports', async () => {
    expect((await resolveTarget('public.test', 0, opts)).allowed).toBe(false);
    expect((await resolveTarget('public.test', 65536, opts)).allowed).toBe(false);
  });

  describe('numeric host spellings', () => {
    const numeric = ['2130706433', '0x7f000001', '017700000001', '0x7f.1', '127.1'];

    it.each(numeric)('Node dns.lookup really maps %s to 127.0.0.1 (so it must be judged)', async (host) => {
      const addrs = await dns.promises.lookup(host, { all: true, verbatim: true });
      expect(addrs.map((a) => a.address)).toContain('127.0.0.1');
    });

    it.each(numeric)('refuses %s with the real resolver', async (host) => {
      const d = await resolveTarget(host, 80, { allowlist: new Set() });
      expect(d.allowed).toBe(false);
      // Named as written: the decoded address is not echoed either.
      if (!d.allowed) expect(d.reason).toBe(`${host} is in a private, loopback or reserved network`);
    });

    it.each(numeric)('refuses %s even if the resolver would say otherwise', async (host) => {
      const liar: LookupFn = async () => [{ address: '93.184.216.34', family: 4 }];
      expect((await resolveTarget(host, 80, { allowlist: new Set(), lookup: liar })).allowed).toBe(false);
    });
  });
});
