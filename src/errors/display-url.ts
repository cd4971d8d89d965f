/** A URL as errors may show it: no credentials, query or fragment (they may hold secrets). */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    // Not a URL: nothing of it is shown (cardUrls reports the invalid URL itself).
    return '(invalid URL)';
  }
}
