/**
 * Whether a request goes through a proxy, and which: decided for the host it goes to, from the
 * environment as the client is given it. HTTP_PROXY (or http_proxy) for an http URL; HTTPS_PROXY
 * (or https_proxy), else HTTP_PROXY, for an https URL; none for a host NO_PROXY (or no_proxy)
 * names. The upper-case name first, an empty value as none. (undici's EnvHttpProxyAgent decides
 * the same, but not through its public API: the decision is made here, once, for both routes.)
 *
 * NO_PROXY is a list of entries, split at commas or spaces, compared without regard to case:
 * - `*` alone: every host;
 * - `example.com`, `.example.com` or `*.example.com`: that host and the hosts under it;
 * - an IP address, IPv6 with or without brackets (`::1`, `[::1]`): that address, as written
 *   (no CIDR ranges);
 * - any of these with `:port`: only on that port (80 and 443 where the URL gives none).
 */
const HTTP_PROXY = ['HTTP_PROXY', 'http_proxy'];
const HTTPS_PROXY = ['HTTPS_PROXY', 'https_proxy', ...HTTP_PROXY];

export function proxyFor(url: URL, env: Readonly<Record<string, string | undefined>>): URL | undefined {
  const names = url.protocol === 'https:' ? HTTPS_PROXY : HTTP_PROXY;
  const proxy = firstSet(env, names);
  if (proxy === undefined || bypassesProxy(url, firstSet(env, ['NO_PROXY', 'no_proxy']) ?? '')) return undefined;
  // A value that is no URL was refused before (cli/target.ts: checkProxyVariables).
  return new URL(proxy);
}

/** Whether NO_PROXY's `list` names the host and port of `url`. */
export function bypassesProxy(url: URL, list: string): boolean {
  const host = bare(url.hostname.toLowerCase());
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  return list
    .split(/[\s,]+/)
    .filter((entry) => entry !== '')
    .some((entry) => {
      if (entry === '*') return true;
      const { name, port: only } = hostAndPort(entry.toLowerCase());
      if (only !== undefined && only !== port) return false;
      const domain = name.replace(/^\*?\./, '');
      return host === domain || (domain !== '' && host.endsWith(`.${domain}`));
    });
}

/** An entry's host and port: `host`, `host:port`, `[v6]`, `[v6]:port`, or a bare IPv6 address (no port). */
function hostAndPort(entry: string): { name: string; port?: number } {
  const bracketed = /^\[([^\]]*)\](?::(\d+))?$/.exec(entry);
  if (bracketed !== null) return withPort(canonicalIpv6(bracketed[1] ?? ''), bracketed[2]);
  if (entry.indexOf(':') !== entry.lastIndexOf(':')) return { name: canonicalIpv6(entry) };
  const [name = '', port] = entry.split(':');
  return withPort(name, port);
}

function withPort(name: string, port: string | undefined): { name: string; port?: number } {
  return port === undefined || port === '' ? { name } : { name, port: Number(port) };
}

/** An IPv6 address as URL writes it (`0:0::1` is `::1`), or as given where it is none. */
function canonicalIpv6(address: string): string {
  try {
    return bare(new URL(`http://[${address}]/`).hostname);
  } catch {
    return address;
  }
}

function bare(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '');
}

function firstSet(env: Readonly<Record<string, string | undefined>>, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = env[name];
    if (value !== undefined && value !== '') return value;
  }
  return undefined;
}
