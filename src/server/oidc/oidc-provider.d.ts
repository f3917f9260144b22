/**
 * The little of oidc-provider (a devDependency that ships no type declarations) the tests' provider uses:
 * clients, accounts with claims, a grant given at once, and its Node request handler.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface GrantInstance {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    save(): Promise<string>;
  }

  export interface KoaContextWithOIDC {
    oidc: {
      session?: { accountId?: string };
      client?: { clientId: string };
      provider: { Grant: new (init: { clientId: string; accountId: string }) => GrantInstance };
    };
  }

  export interface Configuration {
    clients?: Array<Record<string, unknown>>;
    claims?: Record<string, string[]>;
    findAccount?: (
      ctx: KoaContextWithOIDC,
      id: string,
    ) => Promise<{ accountId: string; claims: () => Promise<Record<string, unknown>> } | undefined>;
    loadExistingGrant?: (ctx: KoaContextWithOIDC) => Promise<GrantInstance | undefined>;
    pkce?: { required?: () => boolean };
    ttl?: Record<string, number>;
    features?: Record<string, { enabled: boolean }>;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;
  }
}
