/**
 * Checkers compiled from zod schemas: one generated function per object or array node that answers
 * what `schema.safeParse(value).success` answers, without zod's per-node payloads, issue objects and
 * output copies. zod stays the source of truth: a node or check not modelled here is answered by zod
 * itself (`node.safeParse(v).success`), errors are always zod's (`checkWire` runs zod when the checker
 * says no), and where zod's own JIT is not allowed (`jitless`, no `new Function`) zod answers everything.
 *
 * Modelled, as zod 4.6.7 decides success (`zod/v4/core/schemas.js`): string, number (finite), boolean,
 * null, unknown, any, enum and literal (zod's own value Set), optional (not over a default), nullable,
 * array, object (strip, loose, strict; a required key must be present, `__proto__` is skipped), record of
 * plain string keys, union (first success), and the refinements of objects declared {@link inputRefined}.
 * Anything else (checks such as `.min()`, formats, `z.int()`, coercion, transforms, defaults, catch,
 * pipes, discriminated or exclusive unions, recursive schemas) is zod's. zod internals are read only
 * through the small interfaces below.
 */
import { core, type z } from 'zod';

/** A compiled predicate: true exactly when the schema's `safeParse` succeeds. */
export type Check = (value: unknown) => boolean;

/** The parts of a zod 4.6.7 node's `_zod` read here. */
interface Internals {
  def: Def;
  /** The names of the classes that built the node (`$ZodString`, `ZodString`, …). */
  traits: ReadonlySet<string>;
  /** How an object treats the key when absent: unset (required), `optional`, `defaulted`. */
  optin?: 'optional' | 'defaulted';
  optout?: 'optional';
  /** The Set an enum or literal tests its input against. */
  values?: ReadonlySet<unknown>;
}

interface Node {
  _zod: Internals;
  safeParse(value: unknown): { success: boolean };
}

interface Def {
  type?: string;
  checks?: readonly Node[];
  coerce?: boolean;
  shape?: Readonly<Record<PropertyKey, Node>>;
  catchall?: Node;
  innerType?: Node;
  element?: Node;
  options?: readonly Node[];
  keyType?: Node;
  valueType?: Node;
  mode?: string;
  check?: string;
  fn?: (value: unknown) => unknown;
  when?: unknown;
  abort?: boolean;
}

/** The core class a node of each modelled type is built by (any other `$` trait is a subclass: zod's). */
const CORE_TRAITS: Readonly<Record<string, readonly string[]>> = {
  string: ['$ZodString'],
  number: ['$ZodNumber'],
  boolean: ['$ZodBoolean'],
  null: ['$ZodNull'],
  unknown: ['$ZodUnknown'],
  any: ['$ZodAny'],
  enum: ['$ZodEnum'],
  literal: ['$ZodLiteral'],
  optional: ['$ZodOptional'],
  nullable: ['$ZodNullable'],
  array: ['$ZodArray'],
  object: ['$ZodObject', '$ZodObjectJIT'],
  record: ['$ZodRecord'],
  union: ['$ZodUnion'],
};

const inputRefinedSchemas = new WeakSet<object>();
const compiledSchemas = new WeakMap<object, Check>();

/**
 * Declares that every `.refine()` on `schema` (an object) reads only the object's declared keys, each
 * only to test it for `undefined` or to compare a primitive; returns `schema`. zod hands a refinement the
 * output it built (undeclared keys stripped, containers copied); such a predicate answers the same on
 * the input, so {@link compileCheck} runs it there. A schema not declared so is zod's whole.
 */
export function inputRefined<S extends z.ZodType>(schema: S): S {
  inputRefinedSchemas.add(schema);
  return schema;
}

/**
 * Compiles `schema` into a predicate that is true exactly when `schema.safeParse(value).success` is
 * (cached per schema). Assumes what JSON.parse, literals, spreads and structuredClone always give: no
 * Proxy, no getters. Where zod would throw instead of answering (a refinement throws or is async) the
 * predicate throws too or answers `false` (then `checkWire` runs zod, which throws).
 */
export function compileCheck(schema: z.ZodType): Check {
  // A stream checks the same schema for every event: the last one is kept in front of the WeakMap.
  if (schema === lastSchema && lastCheck !== undefined) return lastCheck;
  let check = compiledSchemas.get(schema);
  if (check === undefined) {
    // zod's public type seen through the interfaces above.
    const node = schema as unknown as Node;
    // A cycle (zod keeps cycle state in its parse context) or no `new Function`: zod answers.
    check = core.util.allowsEval.value && !isRecursive(node) ? new Generator().compile(node) : (v) => node.safeParse(v).success;
    compiledSchemas.set(schema, check);
  }
  lastSchema = schema;
  lastCheck = check;
  return check;
}

let lastSchema: object | undefined;
let lastCheck: Check | undefined;

/** Builds the source of one schema's checker: a function per object/array/record node, leaves inline. */
class Generator {
  readonly #consts: unknown[] = [];
  readonly #functions = new Map<Node, string>();
  readonly #source: string[] = [];

  compile(root: Node): Check {
    const entry = this.#fn(root);
    const names = this.#consts.map((_, i) => `c${i}`);
    const factory = new Function(...names, `'use strict';\n${this.#source.join('\n')}\nreturn ${entry};`) as (...c: unknown[]) => Check;
    return factory(...this.#consts);
  }

  /** A constant handed to the generated code, by name. */
  #const(value: unknown): string {
    this.#consts.push(value);
    return `c${this.#consts.length - 1}`;
  }

  /** zod answers for this node. */
  #zod(node: Node, v: string): string {
    return `${this.#const(node)}.safeParse(${v}).success`;
  }

  /** An expression true when the value in variable `v` (never `undefined` unless `undef`) passes `node`. */
  #expr(node: Node, v: string): string {
    const def = node._zod.def;
    const type = def.type ?? '';
    if (!this.#modelled(node, type)) return this.#zod(node, v);
    switch (type) {
      case 'string':
        return `typeof ${v} === 'string'`;
      case 'number':
        return `(typeof ${v} === 'number' && Number.isFinite(${v}))`;
      case 'boolean':
        return `typeof ${v} === 'boolean'`;
      case 'null':
        return `${v} === null`;
      case 'unknown':
      case 'any':
        return 'true';
      case 'enum':
      case 'literal':
        return node._zod.values === undefined ? this.#zod(node, v) : `${this.#const(node._zod.values)}.has(${v})`;
      case 'optional': {
        const inner = def.innerType;
        // Over a `.default()`, undefined is substituted: zod's.
        if (inner === undefined || inner._zod.optin === 'defaulted') return this.#zod(node, v);
        return `(${v} === undefined || ${this.#expr(inner, v)})`;
      }
      case 'nullable':
        return def.innerType === undefined ? this.#zod(node, v) : `(${v} === null || ${this.#expr(def.innerType, v)})`;
      case 'union': {
        const options = def.options ?? [];
        // A refinement below an option could throw where an earlier option's `false` skipped it: zod's.
        if (options.length === 0 || options.some((o) => this.#refines(o))) return this.#zod(node, v);
        return `(${options.map((o) => this.#expr(o, v)).join(' || ')})`;
      }
      default:
        return `${this.#fn(node)}(${v})`;
    }
  }

  /** True when this node can be generated (else zod answers for it). */
  #modelled(node: Node, type: string): boolean {
    const def = node._zod.def;
    const allowed = CORE_TRAITS[type];
    if (allowed === undefined || def.coerce === true) return false;
    for (const t of node._zod.traits) if (t.startsWith('$') && t !== '$ZodType' && !allowed.includes(t)) return false;
    const checks = def.checks ?? [];
    if (checks.length === 0) return true;
    // The refinements see the input where zod hands them its output: every node below must be modelled
    // (zod's output then has the input's values), and they must be plain `.refine()`s.
    return type === 'object' && inputRefinedSchemas.has(node) && checks.every(isRefine) && this.#faithful(node, true);
  }

  /** True when every node below `node` is generated here (none is answered by zod, which may change values). */
  #faithful(node: Node, root = false): boolean {
    const def = node._zod.def;
    if (!root && !this.#modelled(node, def.type ?? '')) return false;
    const children = [def.innerType, def.element, def.keyType, def.valueType, def.catchall, ...(def.options ?? []), ...Object.values(def.shape ?? {})];
    return children.every((c) => c === undefined || this.#faithful(c));
  }

  #refines(node: Node): boolean {
    const def = node._zod.def;
    if ((def.checks ?? []).length > 0) return true;
    const children = [def.innerType, def.element, def.valueType, def.catchall, ...(def.options ?? []), ...Object.values(def.shape ?? {})];
    return children.some((c) => c !== undefined && this.#refines(c));
  }

  /** The name of the generated function for an object, array or record node (generated once). */
  #fn(node: Node): string {
    let name = this.#functions.get(node);
    if (name !== undefined) return name;
    name = `f${this.#functions.size}`;
    this.#functions.set(node, name);
    const def = node._zod.def;
    const type = def.type ?? '';
    let body: string;
    if (!this.#modelled(node, type)) body = `return ${this.#zod(node, 'v')};`;
    else if (type === 'array' && def.element !== undefined) body = this.#array(def.element);
    else if (type === 'object' && def.shape !== undefined) body = this.#object(node, def);
    else if (type === 'record' && def.keyType !== undefined && def.valueType !== undefined) body = this.#record(node, def.keyType, def.valueType, def.mode);
    else body = `return ${this.#zod(node, 'v')};`;
    this.#source.push(`function ${name}(v) {\n${body}\n}`);
    return name;
  }

  #array(element: Node): string {
    return [
      'if (!Array.isArray(v)) return false;',
      'for (let i = 0; i < v.length; i++) {',
      '  const x = v[i];',
      `  if (!(${this.#valueTest(element, 'x')})) return false;`,
      '}',
      'return true;',
    ].join('\n');
  }

  /** A test of a value that may be `undefined` (array items, record values). */
  #valueTest(node: Node, x: string): string {
    return `${x} === undefined ? ${this.#undefinedOk(node)} : ${this.#expr(node, x)}`;
  }

  /** Whether `undefined` passes `node`, as an expression (a constant when zod's answer can be known now). */
  #undefinedOk(node: Node): string {
    const def = node._zod.def;
    const type = def.type ?? '';
    if (!this.#modelled(node, type)) return this.#zod(node, 'undefined');
    // An optional (not over a default) takes undefined without running its inner schema.
    if (type === 'optional' && def.innerType !== undefined && def.innerType._zod.optin !== 'defaulted') return 'true';
    // Pure nodes answer now; a refined object refuses undefined at its type check, before any refinement.
    if (!this.#refines(node)) return String(node.safeParse(undefined).success);
    if (type === 'object') return 'false';
    return this.#zod(node, 'undefined');
  }

  #object(node: Node, def: Def): string {
    const shape = def.shape ?? {};
    if (Object.getOwnPropertySymbols(shape).length > 0) return `return ${this.#zod(node, 'v')};`;
    const lines = ["if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;", 'let x;'];
    const declared: string[] = [];
    for (const [key, child] of Object.entries(shape)) {
      declared.push(key);
      // zod never checks a declared `__proto__`, and does not count it as unknown either.
      if (key === '__proto__') continue;
      const k = JSON.stringify(key);
      const undef = this.#undefinedOk(child);
      const { optin, optout } = child._zod;
      // Absent (or undefined) keys, as zod's object parse decides: required keys must be present.
      const absent =
        optin === undefined ? `if (!(${k} in v) || !(${undef})) return false;` : optout === 'optional' ? `if (!(${undef}) && ${k} in v) return false;` : `if (!(${undef})) return false;`;
      lines.push(`x = v[${k}];`, `if (x === undefined) { ${absent} } else if (!(${this.#expr(child, 'x')})) return false;`);
    }
    const catchall = def.catchall;
    if (catchall !== undefined) {
      const keys = this.#const(new Set(declared));
      if (catchall._zod.def.type === 'never') lines.push(`for (const k in v) if (!${keys}.has(k)) return false;`);
      else if (!['unknown', 'any'].includes(catchall._zod.def.type ?? '')) {
        lines.push(`for (const k in v) { if (${keys}.has(k) || k === '__proto__') continue; x = v[k]; if (!(${this.#valueTest(catchall, 'x')})) return false; }`);
      }
    }
    const refinements = (def.checks ?? []).map((c) => c._zod.def);
    if (refinements.length > 0) {
      // zod's runChecks: in order, a falsy answer fails, `abort` skips the rest, a promise is an error.
      const asyncError = this.#const(() => new core.$ZodAsyncError());
      lines.push('let ok = true, r;');
      for (const r of refinements) {
        lines.push(`r = ${this.#const(r.fn)}(v);`, `if (r instanceof Promise) throw ${asyncError}();`, `if (!r) { ok = false;${r.abort === true ? ' return false;' : ''} }`);
      }
      lines.push('return ok;');
    } else lines.push('return true;');
    return lines.join('\n');
  }

  #record(node: Node, keyType: Node, valueType: Node, mode: string | undefined): string {
    // Plain `z.string()` keys only: other key types list their keys, retry numeric ones, transform them.
    if (keyType._zod.def.type !== 'string' || !this.#modelled(keyType, 'string')) return `return ${this.#zod(node, 'v')};`;
    const plain = this.#const(isPlainObject);
    const skipSymbols = mode === 'loose' ? 'continue;' : 'return false;';
    return [
      `if (!${plain}(v)) return false;`,
      'for (const key of Reflect.ownKeys(v)) {',
      "  if (key === '__proto__' || !Object.prototype.propertyIsEnumerable.call(v, key)) continue;",
      `  if (typeof key === 'symbol') ${skipSymbols}`,
      '  const x = v[key];',
      `  if (!(${this.#valueTest(valueType, 'x')})) return false;`,
      '}',
      'return true;',
    ].join('\n');
  }
}

/** `.refine(fn)`: a `$ZodCustom` check with a predicate (`when` would run it on failed shapes too). */
function isRefine(check: Node): boolean {
  const d = check._zod.def;
  return d.check === 'custom' && d.type === 'custom' && check._zod.traits.has('$ZodCustom') && d.when === undefined && typeof d.fn === 'function';
}

/** A schema with a cycle below: zod keeps cycle state in its parse context, so it is zod's. */
function isRecursive(node: Node): boolean {
  try {
    return core.isRecursiveSchema(node as unknown as core.$ZodType);
  } catch (error) {
    // The walk can run a throwing shape getter (`z.pick` with an unknown key); zod's own compiler then
    // counts the schema as recursive, and so do we.
    void error;
    return true;
  }
}

/** zod's `util.isPlainObject` (what a record accepts). */
function isPlainObject(v: unknown): v is object {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const ctor: unknown = (v as { constructor?: unknown }).constructor;
  if (ctor === undefined || typeof ctor !== 'function') return true;
  const proto: unknown = (ctor as { prototype?: unknown }).prototype;
  if (typeof proto !== 'object' || proto === null || Array.isArray(proto)) return false;
  return Object.prototype.hasOwnProperty.call(proto, 'isPrototypeOf');
}
