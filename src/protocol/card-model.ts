/** The agent card in the version-independent model: interfaces, skills, security schemes, signatures. */

/** Protocol generation spoken with an agent. */
export type ProtocolVersion = '1.0' | '0.3';
/** Wire binding. `HTTP+JSON` is REST; `GRPC` needs the optional peers `@grpc/grpc-js` and `@bufbuild/protobuf`. */
export type ProtocolBinding = 'JSONRPC' | 'HTTP+JSON' | 'GRPC';

/** One endpoint an agent serves, from its card. */
export interface AgentInterface {
  /** Where the interface is served (a gRPC one may be a bare `host:port`). */
  url: string;
  /** Its binding; a binding this SDK does not speak is kept as written. */
  binding: ProtocolBinding | (string & {});
  /** Its protocol version; a version this SDK does not speak is kept as written. */
  version: ProtocolVersion | (string & {});
  /** The tenant sent with every request to this interface (A2A 1.0.1). */
  tenant?: string;
}

/** One thing the agent can do, as its card lists it (`card.skills`). */
export interface AgentSkill {
  /** Unique id of the skill on the card. */
  id: string;
  /** A name for people. */
  name: string;
  /** What it does, for people (and models). */
  description?: string;
  /** Keywords. */
  tags?: string[];
  /** Example requests it handles. */
  examples?: string[];
  /** What calling this skill needs, when it differs from the card's `security`. */
  security?: SecurityRequirement[];
}

/** Scopes of one OAuth 2 flow: scope name → description. */
export type OAuthScopes = Record<string, string>;

/** The OAuth 2 flows a scheme supports (v1.0 declares one; v0.3 may declare several). */
export interface OAuthFlows {
  /** The authorization code flow. */
  authorizationCode?: {
    /** Where the user authorises. */
    authorizationUrl: string;
    /** Where the code is exchanged for a token. */
    tokenUrl: string;
    /** Where tokens are refreshed. */
    refreshUrl?: string;
    /** The scopes it grants. */
    scopes: OAuthScopes;
    /** Whether PKCE is required (v1.0). */
    pkceRequired?: boolean;
  };
  /** The client credentials flow (machine to machine). */
  clientCredentials?: {
    /** Where the client gets a token. */
    tokenUrl: string;
    /** Where tokens are refreshed. */
    refreshUrl?: string;
    /** The scopes it grants. */
    scopes: OAuthScopes;
  };
  /** OAuth 2.0 Device Authorization Grant (RFC 8628), v1.0. */
  deviceCode?: {
    /** Where the device asks for a user code. */
    deviceAuthorizationUrl: string;
    /** Where the device polls for its token. */
    tokenUrl: string;
    /** Where tokens are refreshed. */
    refreshUrl?: string;
    /** The scopes it grants. */
    scopes: OAuthScopes;
  };
  /** Deprecated in v1.0. */
  implicit?: {
    /** Where the user authorises. */
    authorizationUrl?: string;
    /** Where tokens are refreshed. */
    refreshUrl?: string;
    /** The scopes it grants. */
    scopes: OAuthScopes;
  };
  /** Deprecated in v1.0. */
  password?: {
    /** Where the credentials are exchanged for a token. */
    tokenUrl?: string;
    /** Where tokens are refreshed. */
    refreshUrl?: string;
    /** The scopes it grants. */
    scopes: OAuthScopes;
  };
}

/**
 * How an agent wants callers to authenticate, from its card (both versions; OpenAPI security
 * scheme kinds). `unknown` is a scheme of a kind this SDK does not know, kept as served in `raw`.
 */
export type SecurityScheme =
  /** An API key in a header, query parameter or cookie named `name`. */
  | {
      /** The scheme's kind. */
      type: 'apiKey';
      /** Where the key goes. */
      in: 'header' | 'query' | 'cookie' | (string & {});
      /** The header, parameter or cookie name. */
      name: string;
      /** For people. */
      description?: string;
    }
  /** HTTP authentication: `scheme` is e.g. `Bearer` or `Basic`. */
  | {
      /** The scheme's kind. */
      type: 'http';
      /** The HTTP authentication scheme, e.g. `Bearer`. */
      scheme: string;
      /** A hint at the token's format, e.g. `JWT`. */
      bearerFormat?: string;
      /** For people. */
      description?: string;
    }
  /** OAuth 2: the flows the agent's authorization server supports. */
  | {
      /** The scheme's kind. */
      type: 'oauth2';
      /** The flows, each with its URLs and scopes. */
      flows: OAuthFlows;
      /** RFC 8414 authorization server metadata. */
      metadataUrl?: string;
      /** For people. */
      description?: string;
    }
  /** OpenID Connect: discovery at `openIdConnectUrl`. */
  | {
      /** The scheme's kind. */
      type: 'openIdConnect';
      /** The OpenID Connect discovery URL. */
      openIdConnectUrl: string;
      /** For people. */
      description?: string;
    }
  /** A client certificate (mutual TLS): configure it with the `tls` option (or on your `dispatcher`). */
  | {
      /** The scheme's kind. */
      type: 'mutualTLS';
      /** For people. */
      description?: string;
    }
  /** A kind of scheme this SDK does not know. */
  | {
      /** Always `unknown`. */
      type: 'unknown';
      /** The scheme as served. */
      raw: unknown;
    };

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
  /** The agent's name. */
  name: string;
  /** What it does, for people (and models). */
  description?: string;
  /** The agent's own version (not the protocol's). */
  version?: string;
  /** Interfaces in the agent's order of preference. */
  interfaces: AgentInterface[];
  /** The optional protocol features it supports. */
  capabilities: {
    /** Streaming sends and task subscriptions (`false`: the client polls instead). */
    streaming?: boolean;
    /** Push notification configs. */
    pushNotifications?: boolean;
    /** An extended card for authenticated callers (`getExtendedAgentCard`). */
    extendedAgentCard?: boolean;
    /** v0.3: the task history of state transitions. */
    stateTransitionHistory?: boolean;
    /** The A2A extensions it supports. */
    extensions?: Array<{
      /** The extension's URI. */
      uri: string;
      /** Callers must announce it (`extensions` option). */
      required?: boolean;
    }>;
  };
  /** What it can do. */
  skills: AgentSkill[];
  /** Media types it accepts by default. */
  defaultInputModes?: string[];
  /** Media types it answers with by default. */
  defaultOutputModes?: string[];
  /** Who runs it. */
  provider?: {
    /** The organisation's name. */
    organization?: string;
    /** Its website. */
    url?: string;
  };
  /** The agent's security schemes by name (v1.0 `securitySchemes`, v0.3 the same), when it declares any. */
  securitySchemes?: Record<string, SecurityScheme>;
  /** Alternative ways to satisfy the agent (v1.0 `securityRequirements`, v0.3 `security`), when declared. */
  security?: SecurityRequirement[];
  /** The card's JWS signatures, when it is signed (verify them with the `cardSignature` option). */
  signatures?: AgentCardSignature[];
  /** The card as served. */
  raw: unknown;
}
