/** `{ [key]: value }` when value is defined, else `{}`. */
export function opt<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  const out: { [P in K]?: V } = {};
  if (value !== undefined) out[key] = value;
  return out;
}
