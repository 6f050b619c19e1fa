/** Turns a zod failure into InvalidParams with field violations; the one way requests are validated. */
import type * as z from "zod";
import { A2AError } from "./errors";

export function parseParams<S extends z.ZodType>(schema: S, input: unknown, prefix = ""): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const violations = result.error.issues.slice(0, 20).map((issue) => ({
    field: prefix + issue.path.map(String).join("."),
    description: issue.message,
  }));
  const first = violations[0];
  const message = first ? `Invalid parameters: ${first.field || "params"} ${first.description}` : "Invalid parameters";
  throw new A2AError("InvalidParams", message, undefined, violations);
}
