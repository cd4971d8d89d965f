/** The agent card fields both versions share, as zod shapes (each version's card schema spreads them). */
import { lazy, z } from '../util/lazy-zod.js';
import { SecuritySchemesSchema, V03RequirementsSchema, V1RequirementsSchema } from './card-security.js';

const skill = lazy(() => z.looseObject({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  tags: z.array(z.string()).optional(),
  examples: z.array(z.string()).optional(),
  securityRequirements: V1RequirementsSchema.optional(),
  security: V03RequirementsSchema.optional(),
}));

/** One JWS signature of a card (spec 8.4): `protected` and `signature` are base64url strings. */
export const cardSignature = lazy(() => z.looseObject({
  protected: z.string(),
  signature: z.string(),
  header: z.record(z.string(), z.unknown()).optional(),
}));

/** An entry of `capabilities.extensions`. */
export const cardExtension = lazy(() => z.looseObject({ uri: z.string(), required: z.boolean().optional() }));

/** Name, description, version, skills, input/output modes and provider: the same in v1.0 and v0.3. */
export const commonCardFields = lazy(() => ({
  name: z.string(),
  description: z.string().optional(),
  version: z.string().optional(),
  skills: z.array(skill).optional(),
  defaultInputModes: z.array(z.string()).optional(),
  defaultOutputModes: z.array(z.string()).optional(),
  provider: z.looseObject({ organization: z.string().optional(), url: z.string().optional() }).optional(),
  securitySchemes: SecuritySchemesSchema.optional(),
  /** v1.0 requirements. */
  securityRequirements: V1RequirementsSchema.optional(),
  /** v0.3 requirements. */
  security: V03RequirementsSchema.optional(),
  signatures: z.array(cardSignature).optional(),
}));
