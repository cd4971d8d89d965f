/** The agent card fields both versions share, as zod shapes (each version's card schema spreads them). */
import { z } from 'zod';

const skill = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  tags: z.array(z.string()).optional(),
  examples: z.array(z.string()).optional(),
});

/** An entry of `capabilities.extensions`. */
export const cardExtension = z.looseObject({ uri: z.string(), required: z.boolean().optional() });

/** Name, description, version, skills, input/output modes and provider: the same in v1.0 and v0.3. */
export const commonCardFields = {
  name: z.string(),
  description: z.string().optional(),
  version: z.string().optional(),
  skills: z.array(skill).optional(),
  defaultInputModes: z.array(z.string()).optional(),
  defaultOutputModes: z.array(z.string()).optional(),
  provider: z.looseObject({ organization: z.string().optional(), url: z.string().optional() }).optional(),
};
