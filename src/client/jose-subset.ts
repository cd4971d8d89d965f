/**
 * The parts of `jose` that card verification uses, imported by name so a bundler keeps only these
 * (esbuild, minified + gzipped: ~5 KB against ~19 KB for all of jose). Loaded with `import()` by
 * `card-signature.ts` on the first verification.
 */
import { base64url, decodeProtectedHeader, flattenedVerify } from 'jose';

/** jose's JWS helpers used to verify signed agent cards. */
export const jose = { base64url, decodeProtectedHeader, flattenedVerify };
