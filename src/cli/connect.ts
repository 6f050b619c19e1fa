/** From the command's flags and environment to a connected client. */
import { A2AClient, apiKey, bearer, type Binding, type ClientOptions, type CredentialProvider } from "../client/index";

export interface ConnectionFlags {
  bearer?: string;
  apiKey?: string;
  tenant?: string;
  binding?: "jsonrpc" | "rest";
  json?: boolean;
}

const BINDING: Record<NonNullable<ConnectionFlags["binding"]>, Binding> = { jsonrpc: "JSONRPC", rest: "HTTP+JSON" };

/** Credentials: --bearer or $A2A_TOKEN, --api-key or $A2A_API_KEY. */
export function credentialsFrom(flags: ConnectionFlags, env: NodeJS.ProcessEnv = process.env): CredentialProvider[] {
  const credentials: CredentialProvider[] = [];
  const token = flags.bearer ?? env.A2A_TOKEN;
  if (token) credentials.push(bearer(token));
  const key = flags.apiKey ?? env.A2A_API_KEY;
  if (key) credentials.push(apiKey(key));
  return credentials;
}

export function connect(url: string, flags: ConnectionFlags): Promise<A2AClient> {
  const options: ClientOptions = { credentials: credentialsFrom(flags) };
  if (flags.tenant) options.tenant = flags.tenant;
  if (flags.binding) options.bindings = [BINDING[flags.binding]];
  return A2AClient.connect(url, options);
}
