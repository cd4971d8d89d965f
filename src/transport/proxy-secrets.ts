import { headerSecrets, urlSecrets } from '../errors/secrets.js';

/**
 * The texts of a proxy setting to keep out of errors: the password of each proxy URL in use (the
 * `proxy` URL, or for `'env'` the proxy variables), as written and decoded, and the `Basic`
 * credentials undici sends for it in `Proxy-Authorization`, in every form `headerSecrets` knows.
 */
export function proxySecrets(proxy: string | undefined): string[] {
  if (proxy === undefined) return [];
  const env = process.env;
  const urls = proxy === 'env' ? [env.http_proxy, env.HTTP_PROXY, env.https_proxy, env.HTTPS_PROXY] : [proxy];
  const found = new Set<string>();
  for (const url of urls) {
    if (url === undefined || !URL.canParse(url)) continue;
    const u = new URL(url);
    if (u.password === '' && u.username === '') continue;
    for (const text of urlSecrets(url)) found.add(text);
    const basic = Buffer.from(`${safeDecode(u.username)}:${safeDecode(u.password)}`).toString('base64');
    for (const text of headerSecrets({ 'proxy-authorization': `Basic ${basic}` })) found.add(text);
  }
  return [...found].sort((a, b) => b.length - a.length);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    // URIError: not percent-encoded after all; undici sends it as written too.
    return text;
  }
}
