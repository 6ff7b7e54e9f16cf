import { describe, expect, it } from 'vitest';
import { bypassesProxy, proxyFor } from '../../src/client/proxy-route.js';

describe('NO_PROXY: the hosts reached without the proxy', () => {
  it.each([
    // host, NO_PROXY, bypassed
    ['http://127.0.0.1:8080', '127.0.0.1', true],
    ['http://127.0.0.1:8080', '127.0.0.2', false],
    ['http://localhost:8080', 'LOCALHOST', true],
    ['http://Plants.Example.COM', 'plants.example.com', true],
    ['http://plants.example.com', 'example.com', true],
    ['http://plants.example.com', '.example.com', true],
    ['http://plants.example.com', '*.example.com', true],
    ['http://example.com', '.example.com', true],
    ['http://badexample.com', 'example.com', false],
    ['http://badexample.com', '.example.com', false],
    ['http://example.com.evil.org', 'example.com', false],
    ['http://anything.org', '*', true],
    ['http://anything.org', 'other.org, *', true],
    ['http://anything.org', '', false],
    ['http://anything.org', ' , ,', false],
    ['http://a.org', 'b.org,a.org', true],
    ['http://a.org', 'b.org a.org', true],
    ['http://a.org', '  b.org ,\ta.org  ', true],
    // Ports: an entry with one names that port only; a URL without one has its scheme's.
    ['http://a.org:8080', 'a.org:8080', true],
    ['http://a.org:8081', 'a.org:8080', false],
    ['http://a.org', 'a.org:80', true],
    ['https://a.org', 'a.org:443', true],
    ['https://a.org', 'a.org:80', false],
    ['http://127.0.0.1:8080', '127.0.0.1:8080', true],
    ['http://127.0.0.1:8080', '127.0.0.1:9090', false],
    // IPv6, with brackets or without, written either way.
    ['http://[::1]:8080', '::1', true],
    ['http://[::1]:8080', '[::1]', true],
    ['http://[::1]:8080', '[::1]:8080', true],
    ['http://[::1]:8080', '[::1]:9090', false],
    ['http://[::1]:8080', '0:0:0:0:0:0:0:1', true],
    ['http://[::1]:8080', '::2', false],
    ['http://[2001:db8::1]', '2001:DB8::1', true],
    ['http://127.0.0.1', '::1', false],
  ])('%s with NO_PROXY=%j: %s', (url, list, bypassed) => {
    expect(bypassesProxy(new URL(url), list)).toBe(bypassed);
  });
});

describe('the proxy for a request', () => {
  const proxy = 'http://proxy.example:3128';
  const other = 'http://other:1';
  const through = (url: string, env: Record<string, string>) => proxyFor(new URL(url), env)?.href;

  it('is HTTP_PROXY for an http URL, HTTPS_PROXY (else HTTP_PROXY) for an https one', () => {
    expect(through('http://a.org', { HTTP_PROXY: proxy })).toBe(`${proxy}/`);
    expect(through('http://a.org', { HTTPS_PROXY: proxy })).toBeUndefined();
    expect(through('https://a.org', { HTTPS_PROXY: proxy })).toBe(`${proxy}/`);
    expect(through('https://a.org', { HTTP_PROXY: proxy })).toBe(`${proxy}/`);
    expect(through('https://a.org', { HTTP_PROXY: other, https_proxy: proxy })).toBe(`${proxy}/`);
  });

  it('reads the upper-case name first, either case, and an empty value as none', () => {
    expect(through('http://a.org', { http_proxy: proxy })).toBe(`${proxy}/`);
    expect(through('http://a.org', { HTTP_PROXY: proxy, http_proxy: other })).toBe(`${proxy}/`);
    expect(through('http://a.org', { HTTP_PROXY: '', http_proxy: proxy })).toBe(`${proxy}/`);
    expect(through('http://a.org', { HTTP_PROXY: '' })).toBeUndefined();
    expect(through('http://a.org', { HTTP_PROXY: proxy, no_proxy: 'a.org' })).toBeUndefined();
    expect(through('http://a.org', { HTTP_PROXY: proxy, NO_PROXY: '', no_proxy: 'a.org' })).toBeUndefined();
    expect(through('http://a.org', { HTTP_PROXY: proxy, NO_PROXY: 'b.org', no_proxy: 'a.org' })).toBe(`${proxy}/`);
  });

  it('is none for a host NO_PROXY names, whichever variable names the proxy', () => {
    for (const name of ['HTTP_PROXY', 'http_proxy']) {
      expect(through('http://127.0.0.1:8080', { [name]: proxy, NO_PROXY: '127.0.0.1' })).toBeUndefined();
    }
    for (const name of ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY']) {
      expect(through('https://a.org', { [name]: proxy, no_proxy: '.a.org' })).toBeUndefined();
    }
    expect(through('http://127.0.0.1:8080', { HTTP_PROXY: proxy, NO_PROXY: 'localhost' })).toBe(`${proxy}/`);
  });
});
