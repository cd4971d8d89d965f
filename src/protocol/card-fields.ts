/** The agent card fields both versions share, as zod shapes (each version's card schema spreads them). */
import { lazy, z } from '../util/lazy-zod.js';
import { SecuritySchemesSchema, V03RequirementsSchema, V1RequirementsSchema } from './card-security.js';

const skill = lazy(() => z.looseObject({
  id: z.string(),
  name: z.string(),
  description: z.optional(z.string()),
  tags: z.optional(z.array(z.string())),
  examples: z.optional(z.array(z.string())),
  securityRequirements: z.optional(V1RequirementsSchema),
  security: z.optional(V03RequirementsSchema),
}));

/** One JWS signature of a card (spec 8.4): `protected` and `signature` are base64url strings. */
export const cardSignature = lazy(() => z.looseObject({
  protected: z.string(),
  signature: z.string(),
  header: z.optional(z.record(z.string(), z.unknown())),
}));

/** An entry of `capabilities.extensions`. */
export const cardExtension = lazy(() => z.looseObject({ uri: z.string(), required: z.optional(z.boolean()) }));

/** Name, description, version, skills, input/output modes and provider: the same in v1.0 and v0.3. */
export const commonCardFields = lazy(() => ({
  name: z.string(),
  description: z.optional(z.string()),
  version: z.optional(z.string()),
  skills: z.optional(z.array(skill)),
  defaultInputModes: z.optional(z.array(z.string())),
  defaultOutputModes: z.optional(z.array(z.string())),
  provider: z.optional(z.looseObject({ organization: z.optional(z.string()), url: z.optional(z.string()) })),
  securitySchemes: z.optional(SecuritySchemesSchema),
  /** v1.0 requirements. */
  securityRequirements: z.optional(V1RequirementsSchema),
  /** v0.3 requirements. */
  security: z.optional(V03RequirementsSchema),
  signatures: z.optional(z.array(cardSignature)),
}));
