/**
 * A PostgreSQL connection URL as people may see it: with its password (in the user part or a
 * `password` parameter) replaced by `***`, as a token is. Anything that is not a URL is shown as
 * `(not a URL)`: it might be a password typed in the wrong place.
 */
export function maskedDatabaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return '(not a URL)';
  }
  if (url.password !== '') url.password = '***';
  if (url.searchParams.has('password')) url.searchParams.set('password', '***');
  return url.href;
}
