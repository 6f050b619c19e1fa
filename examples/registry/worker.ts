/**
 * The agent registry, deployable on its own: `npm run dev:registry -- --port N` locally,
 * `npm run deploy:registry` to Cloudflare (set the REGISTRY_ADMIN_TOKEN secret first).
 */
import { createRegistry } from "../../src/registry/index";

const registry = createRegistry();

export default { fetch: registry.fetch, scheduled: registry.scheduled };
export const { RegistryObject, TaskObject, TaskIndex } = registry;
