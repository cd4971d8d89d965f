/**
 * The A2AClientError a promise rejects with: fails the test if it resolves, and rethrows anything that
 * is not one. Works for errors from the sources and from the built package alike (`isA2AClientError`
 * checks a brand, not a class).
 */
import { isA2AClientError, type A2AClientError } from '../../src/errors/a2a-client-error.js';

export async function rejection(promise: Promise<unknown>): Promise<A2AClientError> {
  try {
    await promise;
  } catch (error) {
    if (isA2AClientError(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}
