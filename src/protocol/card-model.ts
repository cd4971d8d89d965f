/** The agent card in the version-independent model: interfaces, skills, security schemes, signatures. */

/** Protocol generation spoken with an agent. */
export type ProtocolVersion = '1.0' | '0.3';
/** Wire binding. `HTTP+JSON` is REST; `GRPC` needs the optional peers `@grpc/grpc-js` and `@bufbuild/protobuf`. */
export type ProtocolBinding = 'JSONRPC' | 'HTTP+JSON' | 'GRPC';

/** One endpoint an agent serves, from its card. */
export interface AgentInterface {
  url: string;
  binding: ProtocolBinding | (string & {});
  version: ProtocolVersion | (string & {});
  tenant?: string;
}

/** One thing the agent can do, as its card lists it (`card.skills`). */
export interface AgentSkill {
  id: string;
  name: string;
  description?: string;
  tags?: string[];
  examples?: string[];
  /** What calling this skill needs, when it differs from the card's `security`. */
  security?: SecurityRequirement[];
}

/** Scopes of one OAuth 2 flow: scope name → description. */
export type OAuthScopes = Record<string, string>;

/** The OAuth 2 flows a scheme supports (v1.0 declares one; v0.3 may declare several). */
export interface OAuthFlows {
  authorizationCode?: { authorizationUrl: string; tokenUrl: string; refreshUrl?: string; scopes: OAuthScopes; pkceRequired?: boolean };
  clientCredentials?: { tokenUrl: string; refreshUrl?: string; scopes: OAuthScopes };
  /** OAuth 2.0 Device Authorization Grant (RFC 8628), v1.0. */
  deviceCode?: { deviceAuthorizationUrl: string; tokenUrl: string; refreshUrl?: string; scopes: OAuthScopes };
  /** Deprecated in v1.0. */
  implicit?: { authorizationUrl?: string; refreshUrl?: string; scopes: OAuthScopes };
  /** Deprecated in v1.0. */
  password?: { tokenUrl?: string; refreshUrl?: string; scopes: OAuthScopes };
}

/**
 * How an agent wants callers to authenticate, from its card (both versions; OpenAPI security
 * scheme kinds). `unknown` is a scheme of a kind this SDK does not know, kept as served in `raw`.
 */
export type SecurityScheme =
  /** An API key in a header, query parameter or cookie named `name`. */
  | { type: 'apiKey'; in: 'header' | 'query' | 'cookie' | (string & {}); name: string; description?: string }
  /** HTTP authentication: `scheme` is e.g. `Bearer` or `Basic`. */
  | { type: 'http'; scheme: string; bearerFormat?: string; description?: string }
  | { type: 'oauth2'; flows: OAuthFlows; /** RFC 8414 authorization server metadata. */ metadataUrl?: string; description?: string }
  | { type: 'openIdConnect'; openIdConnectUrl: string; description?: string }
  /** A client certificate (mutual TLS): configure it on the `dispatcher`. */
  | { type: 'mutualTLS'; description?: string }
  | { type: 'unknown'; raw: unknown };

/**
 * One way to satisfy an agent: every scheme named here (with the scopes listed), together. A card's
 * list of requirements are alternatives: any one of them will do.
 */
export type SecurityRequirement = Record<string, string[]>;

/** One JWS signature of an agent card (A2A spec 8.4), as served. */
export interface AgentCardSignature {
  /** The base64url-encoded protected header. */
  protected: string;
  /** The base64url-encoded signature. */
  signature: string;
  /** The unprotected header. */
  header?: Record<string, unknown>;
}

/** A validated agent card in the version-independent model. */
export interface AgentCard {
  name: string;
  description?: string;
  version?: string;
  /** Interfaces in the agent's order of preference. */
  interfaces: AgentInterface[];
  capabilities: {
    streaming?: boolean;
    pushNotifications?: boolean;
    extendedAgentCard?: boolean;
    stateTransitionHistory?: boolean;
    extensions?: Array<{ uri: string; required?: boolean }>;
  };
  skills: AgentSkill[];
  defaultInputModes?: string[];
  defaultOutputModes?: string[];
  provider?: { organization?: string; url?: string };
  /** The agent's security schemes by name (v1.0 `securitySchemes`, v0.3 the same), when it declares any. */
  securitySchemes?: Record<string, SecurityScheme>;
  /** Alternative ways to satisfy the agent (v1.0 `securityRequirements`, v0.3 `security`), when declared. */
  security?: SecurityRequirement[];
  /** The card's JWS signatures, when it is signed (verify them with the `cardSignature` option). */
  signatures?: AgentCardSignature[];
  /** The card as served. */
  raw: unknown;
}
