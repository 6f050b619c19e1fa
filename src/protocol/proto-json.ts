/**
 * ProtoJSON building blocks for the zod schemas (reference §3): snake_case accepted on input,
 * enums by name (or number), int32 as number or numeric string, oneof = exactly one member,
 * unknown fields ignored.
 */
import * as z from "zod";

// Workers forbid code generation during requests; jitless keeps tests and production on one path.
z.config({ jitless: true });

const SNAKE = /_([a-z0-9])/g;

/** Converts the snake_case keys of one object level to lowerCamelCase; copies only when needed. */
function camelizeKeys(value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  let hasSnake = false;
  for (const key in record) if (key.includes("_")) { hasSnake = true; break; }
  if (!hasSnake) return value;
  const out: Record<string, unknown> = {};
  for (const key in record) {
    const camel = key.replace(SNAKE, (_, c: string) => c.toUpperCase());
    // An explicit camelCase key wins over its snake_case twin.
    if (camel !== key && Object.hasOwn(record, camel)) continue;
    out[camel] = record[key];
  }
  return out;
}

/** A proto message: an object whose snake_case keys are accepted and whose unknown keys are dropped. */
export function message<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.preprocess(camelizeKeys, z.object(shape));
}

/** Adds the "exactly one of" rule of a proto oneof to an object schema. */
export function exactlyOne<T extends object>(keys: readonly (keyof T & string)[], what: string) {
  return (value: T, ctx: z.RefinementCtx) => {
    const present = keys.filter((k) => (value as Record<string, unknown>)[k] !== undefined);
    if (present.length !== 1) {
      ctx.addIssue({
        code: "custom",
        message: present.length === 0
          ? `${what} must set exactly one of ${keys.join(", ")}`
          : `${what} sets ${present.join(" and ")}; exactly one is allowed`,
      });
    }
  };
}

/** A proto enum, serialized by name; the numeric form is accepted on input. */
export function protoEnum<const Names extends readonly [string, ...string[]]>(names: Names) {
  return z.preprocess(
    (v) => (typeof v === "number" && Number.isInteger(v) && v >= 0 && v < names.length ? names[v] : v),
    z.enum(names),
  );
}

/** int32: a JSON number, or a decimal string (ProtoJSON and query strings). */
export const int32 = z.preprocess(
  (v) => (typeof v === "string" && /^-?\d+$/.test(v.trim()) ? Number(v) : v),
  z.number().int().min(-2147483648).max(2147483647),
);

/** bool, also as "true"/"false" (query strings). */
export const bool = z.preprocess(
  (v) => (v === "true" ? true : v === "false" ? false : v),
  z.boolean(),
);

/** google.protobuf.Timestamp: RFC 3339; offsets accepted on input (reference §9 #23). */
export const timestamp = z.string().refine(
  (s) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(s) && !Number.isNaN(Date.parse(s)),
  { message: "must be an RFC 3339 timestamp, e.g. 2026-01-01T00:00:00.000Z" },
);

/** google.protobuf.Struct: a JSON object. */
export const struct = z.record(z.string(), z.unknown());

/** bytes: base64, standard or URL-safe alphabet, padded or not. */
export const bytes = z.string().regex(/^[A-Za-z0-9+/_-]*={0,2}$/, { message: "must be base64" });

/** A non-empty string: REQUIRED string fields must be set. */
export const requiredString = z.string().min(1, { message: "is required" });

/** Our own timestamps: UTC, `Z`, milliseconds (spec §5.6.1). */
export function nowTimestamp(): string {
  return new Date().toISOString();
}
