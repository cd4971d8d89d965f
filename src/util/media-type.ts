/** The media type of SSE responses. */
export const SSE_TYPE = 'text/event-stream';

/** The media type of a `Content-Type` value: lower case, parameters dropped; `''` when absent. */
export function mediaTypeOf(contentType: string | null | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** A response's media type from its (lower-cased) headers: lower case, parameters dropped; `''` when absent. */
export function mediaType(headers: Record<string, string>): string {
  return mediaTypeOf(headers['content-type']);
}

/** True when the response is an SSE stream. */
export function isSseType(headers: Record<string, string>): boolean {
  return mediaType(headers) === SSE_TYPE;
}
