/** The A2A v1.0 protocol model: schemas, inferred types, states and the error table. Imports nothing of ours. */
export * from "./states";
export * from "./objects";
export * from "./requests";
export * from "./card";
export * from "./errors";
export * from "./validate";
export { nowTimestamp } from "./proto-json";
export * from "./sse";
