/** zod schemas of the Agent Card (reference §2.1, §7.2). */
import * as z from "zod";
import { exactlyOne, message, requiredString, struct } from "./proto-json";

export const AgentInterfaceSchema = message({
  url: requiredString,
  protocolBinding: requiredString,
  tenant: z.string().optional(),
  protocolVersion: requiredString,
});
export type AgentInterface = z.infer<typeof AgentInterfaceSchema>;

export const AgentProviderSchema = message({ url: requiredString, organization: requiredString });

export const AgentExtensionSchema = message({
  uri: z.string().optional(),
  description: z.string().optional(),
  required: z.boolean().optional(),
  params: struct.optional(),
});
export type AgentExtension = z.infer<typeof AgentExtensionSchema>;

export const AgentCapabilitiesSchema = message({
  streaming: z.boolean().optional(),
  pushNotifications: z.boolean().optional(),
  extensions: z.array(AgentExtensionSchema).optional(),
  extendedAgentCard: z.boolean().optional(),
});
export type AgentCapabilities = z.infer<typeof AgentCapabilitiesSchema>;

export const SecurityRequirementSchema = message({
  schemes: z.record(z.string(), message({ list: z.array(z.string()).optional() })),
});
export type SecurityRequirement = z.infer<typeof SecurityRequirementSchema>;

export const AgentSkillSchema = message({
  id: requiredString,
  name: requiredString,
  description: requiredString,
  tags: z.array(z.string()).min(1, { message: "needs at least one tag" }),
  examples: z.array(z.string()).optional(),
  inputModes: z.array(z.string()).optional(),
  outputModes: z.array(z.string()).optional(),
  securityRequirements: z.array(SecurityRequirementSchema).optional(),
});
export type AgentSkill = z.infer<typeof AgentSkillSchema>;

const scopes = z.record(z.string(), z.string());
const OAuthFlowsSchema = message({
  authorizationCode: message({
    authorizationUrl: requiredString, tokenUrl: requiredString, refreshUrl: z.string().optional(),
    scopes, pkceRequired: z.boolean().optional(),
  }).optional(),
  clientCredentials: message({ tokenUrl: requiredString, refreshUrl: z.string().optional(), scopes }).optional(),
  deviceCode: message({
    deviceAuthorizationUrl: requiredString, tokenUrl: requiredString, refreshUrl: z.string().optional(), scopes,
  }).optional(),
  implicit: message({ authorizationUrl: requiredString, refreshUrl: z.string().optional(), scopes }).optional(),
  password: message({ tokenUrl: requiredString, refreshUrl: z.string().optional(), scopes }).optional(),
}).superRefine(exactlyOne(["authorizationCode", "clientCredentials", "deviceCode", "implicit", "password"], "OAuth flows"));

const description = z.string().optional();
export const SecuritySchemeSchema = message({
  apiKeySecurityScheme: message({
    description, location: z.enum(["query", "header", "cookie"]), name: requiredString,
  }).optional(),
  httpAuthSecurityScheme: message({ description, scheme: requiredString, bearerFormat: z.string().optional() }).optional(),
  oauth2SecurityScheme: message({ description, flows: OAuthFlowsSchema, oauth2MetadataUrl: z.string().optional() }).optional(),
  openIdConnectSecurityScheme: message({ description, openIdConnectUrl: requiredString }).optional(),
  mtlsSecurityScheme: message({ description }).optional(),
}).superRefine(exactlyOne(
  ["apiKeySecurityScheme", "httpAuthSecurityScheme", "oauth2SecurityScheme", "openIdConnectSecurityScheme", "mtlsSecurityScheme"],
  "a security scheme",
));
export type SecurityScheme = z.infer<typeof SecuritySchemeSchema>;

export const AgentCardSignatureSchema = message({
  protected: requiredString,
  signature: requiredString,
  header: struct.optional(),
});

export const AgentCardSchema = message({
  name: requiredString,
  description: requiredString,
  supportedInterfaces: z.array(AgentInterfaceSchema).min(1),
  provider: AgentProviderSchema.optional(),
  version: requiredString,
  documentationUrl: z.string().optional(),
  capabilities: AgentCapabilitiesSchema,
  securitySchemes: z.record(z.string(), SecuritySchemeSchema).optional(),
  securityRequirements: z.array(SecurityRequirementSchema).optional(),
  defaultInputModes: z.array(z.string()).min(1),
  defaultOutputModes: z.array(z.string()).min(1),
  skills: z.array(AgentSkillSchema).min(1),
  signatures: z.array(AgentCardSignatureSchema).optional(),
  iconUrl: z.string().optional(),
});
export type AgentCard = z.infer<typeof AgentCardSchema>;
