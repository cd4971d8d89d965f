/** The media type of SSE responses. */
export const SSE_TYPE = 'text/event-stream';

/** A response's media type from its (lower-cased) headers: lower case, parameters dropped; `''` when absent. */
export function mediaType(headers: Record<string, string>): string {
  return (headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** True when the response is an SSE stream. */
export function isSseType(headers: Record<string, string>): boolean {
  return mediaType(headers) === SSE_TYPE;
}
