/**
 * Named routes: a URL is built from a route's name and its parameters. Parameters
 * come as an array (positional) or an object (by name; extra keys become the query string). A
 * parameter given as an object (a model) contributes its route-model binding key, else its `id`.
 * Default parameter values apply where a parameter is not given.
 */

type Scalar = string | number;
export type Model = Record<string, unknown>;
export type ParamValue = Scalar | Model | null | undefined;
export type RouteParams = ParamValue[] | Record<string, ParamValue>;

export type RouteDefinition = {
  path: string;
  /** Parameter name → the model field that identifies it in URLs (e.g. a project's `slug`). */
  bindings?: Record<string, string>;
  defaults?: Record<string, Scalar>;
};

export class RouteError extends Error {
  override name = "RouteError";
}

type Segment = { name: string; optional: boolean };

/** A route path's parameters, read once per path (links are built on every render). */
const segmentsByPath = new Map<string, Segment[]>();
function segmentsOf(path: string): Segment[] {
  let segments = segmentsByPath.get(path);
  if (!segments) {
    segments = [...path.matchAll(/:(\w+)(\?)?/g)].map((m) => ({ name: m[1]!, optional: m[2] === "?" }));
    segmentsByPath.set(path, segments);
  }
  return segments;
}

function scalarOf(route: string, param: string, value: ParamValue, binding?: string): Scalar | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== "object") return value;
  for (const key of [binding, "id"]) {
    if (!key) continue;
    const candidate = value[key];
    if (typeof candidate === "string" || typeof candidate === "number") return candidate;
  }
  const keys = binding && binding !== "id" ? `"${binding}" or "id"` : `"id"`;
  throw new RouteError(`Route "${route}": parameter "${param}" is an object without ${keys}`);
}

export function createRouteHelper<Table extends Record<string, RouteDefinition>>(table: Table, globalDefaults: Record<string, Scalar> = {}) {
  return function route(name: keyof Table & string, params: RouteParams = {}): string {
    const definition = table[name];
    if (!definition) throw new RouteError(`Route "${name}" is not defined`);
    const segments = segmentsOf(definition.path);
    if (segments.length === 0 && (Array.isArray(params) ? params.length === 0 : isEmpty(params))) return definition.path || "/";
    const defaults = { ...globalDefaults, ...definition.defaults };
    const values = new Map<string, ParamValue>();
    const query = new URLSearchParams();

    if (Array.isArray(params)) {
      if (params.length > segments.length) {
        throw new RouteError(`Route "${name}" takes ${segments.length} parameter(s), got ${params.length}`);
      }
      params.forEach((value, i) => values.set(segments[i]!.name, value));
    } else {
      const known = new Set(segments.map((s) => s.name));
      for (const [key, value] of Object.entries(params)) {
        if (known.has(key)) values.set(key, value);
        else {
          const scalar = scalarOf(name, key, value);
          if (scalar !== undefined) query.append(key, String(scalar));
        }
      }
    }

    let path = definition.path;
    for (const segment of segments) {
      const given = scalarOf(name, segment.name, values.get(segment.name), definition.bindings?.[segment.name]);
      const value = given ?? defaults[segment.name];
      const token = `:${segment.name}${segment.optional ? "?" : ""}`;
      if (value === undefined) {
        if (!segment.optional) throw new RouteError(`Route "${name}" needs parameter "${segment.name}"`);
        path = path.replace(new RegExp(`/?${token.replace("?", "\\?")}`), "");
      } else {
        path = path.replace(token, encodeURIComponent(String(value)));
      }
    }
    const search = query.toString();
    return (path || "/") + (search ? `?${search}` : "");
  };
}

function isEmpty(params: Record<string, ParamValue>) {
  for (const _ in params) return false;
  return true;
}
