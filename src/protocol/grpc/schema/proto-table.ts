/**
 * The A2A gRPC services as plain tables of their interface facts — message, field and method names,
 * field numbers and types, as the A2A specification fixes them for the wire — turned into protobuf
 * descriptors at run time (`@bufbuild/protobuf`, an optional peer loaded only for gRPC). Written for
 * this package: no schema file is generated or shipped, and nothing here describes more than the wire.
 *
 * A field is `'<name> <number> <type>[ ?| |<oneof>]'`: `<type>` is a scalar (`string`, `int32`, `bool`,
 * `bytes`, …), a message or enum of the same table by name (`Task`, `BadRequest.FieldViolation`), one of
 * another file with a leading dot (`.google.protobuf.Struct`), `T[]` for a repeated field,
 * `map<K,V>` for a map; then ` =jsonName` where the field's JSON name is not its lowerCamelCase name,
 * ` ?` for a proto3 `optional` field, ` |name` for a member of the oneof `name`.
 * A method is `'<Name> <Input> [stream ]<Output>'` (`stream`: server-streaming).
 */
import { create, createFileRegistry, type DescFile, type FileRegistry } from '@bufbuild/protobuf';
import {
  type DescriptorProtoSchema,
  FileDescriptorProtoSchema,
  file_google_protobuf_any,
  file_google_protobuf_duration,
  file_google_protobuf_empty,
  file_google_protobuf_struct,
  file_google_protobuf_timestamp,
  type FieldDescriptorProtoSchema,
} from '@bufbuild/protobuf/wkt';
import type { MessageInitShape } from '@bufbuild/protobuf';

/** One file's worth of messages, enums and services. */
export interface ProtoTable {
  /** The file's name in the registry, e.g. `a2a-resilient/lf.a2a.v1.proto`. */
  file: string;
  package: string;
  /** Files whose types it refers to, by registry name (`google/protobuf/struct.proto`). */
  imports: readonly string[];
  /** Messages by name; a nested message is named `Outer.Inner`. */
  messages: Readonly<Record<string, readonly string[]>>;
  enums?: Readonly<Record<string, readonly string[]>>;
  services?: Readonly<Record<string, readonly string[]>>;
}

const SCALARS: Readonly<Record<string, number>> = {
  double: 1, float: 2, int64: 3, uint64: 4, int32: 5, fixed64: 6, fixed32: 7, bool: 8, string: 9,
  bytes: 12, uint32: 13, sfixed32: 15, sfixed64: 16, sint32: 17, sint64: 18,
};
const TYPE_MESSAGE = 11;
const TYPE_ENUM = 14;
const LABEL_OPTIONAL = 1;
const LABEL_REPEATED = 3;

const WELL_KNOWN: readonly DescFile[] = [
  file_google_protobuf_any,
  file_google_protobuf_duration,
  file_google_protobuf_empty,
  file_google_protobuf_struct,
  file_google_protobuf_timestamp,
];

/** `snake_case` → `lowerCamelCase`, as protobuf derives a field's JSON name. */
function jsonName(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** `security_schemes` → `SecuritySchemesEntry`: the name protobuf gives a map field's entry message. */
function entryName(field: string): string {
  const camel = jsonName(field);
  return `${camel.charAt(0).toUpperCase()}${camel.slice(1)}Entry`;
}

type FieldInit = MessageInitShape<typeof FieldDescriptorProtoSchema>;
type MessageInit = MessageInitShape<typeof DescriptorProtoSchema>;

/** The descriptor fields of one field's type (`typeName` fully qualified). */
function typeOf(t: string, table: ProtoTable): Pick<FieldInit, 'type' | 'typeName'> {
  const scalar = SCALARS[t];
  if (scalar !== undefined) return { type: scalar };
  if (t.startsWith('.')) return { type: TYPE_MESSAGE, typeName: t };
  const typeName = `.${table.package}.${t}`;
  return table.enums?.[t] !== undefined ? { type: TYPE_ENUM, typeName } : { type: TYPE_MESSAGE, typeName };
}

/** One message of the table as a descriptor, its map entries and nested messages inside it. */
function message(name: string, table: ProtoTable): MessageInit {
  const short = name.slice(name.lastIndexOf('.') + 1);
  const fields: FieldInit[] = [];
  const nested: MessageInit[] = [];
  const oneofs: string[] = [];
  const synthetic: Array<{ field: FieldInit; oneof: string }> = [];
  for (const spec of table.messages[name] ?? []) {
    const [fieldName = '', number = '0', type = '', ...marks] = spec.split(' ');
    const json = marks.find((m) => m.startsWith('='))?.slice(1);
    const mark = marks.find((m) => !m.startsWith('='));
    const field: FieldInit = { name: fieldName, number: Number(number), jsonName: json ?? jsonName(fieldName), label: LABEL_OPTIONAL };
    const map = /^map<(\w+),(.+)>$/.exec(type);
    if (map) {
      const entry = entryName(fieldName);
      nested.push({
        name: entry,
        field: [
          { name: 'key', number: 1, jsonName: 'key', label: LABEL_OPTIONAL, ...typeOf(map[1] ?? '', table) },
          { name: 'value', number: 2, jsonName: 'value', label: LABEL_OPTIONAL, ...typeOf(map[2] ?? '', table) },
        ],
        options: { mapEntry: true },
      });
      Object.assign(field, { label: LABEL_REPEATED, type: TYPE_MESSAGE, typeName: `.${table.package}.${name}.${entry}` });
    } else if (type.endsWith('[]')) {
      Object.assign(field, { label: LABEL_REPEATED }, typeOf(type.slice(0, -2), table));
    } else {
      Object.assign(field, typeOf(type, table));
    }
    if (mark === '?') synthetic.push({ field, oneof: `_${fieldName}` });
    else if (mark?.startsWith('|')) {
      const oneof = mark.slice(1);
      if (!oneofs.includes(oneof)) oneofs.push(oneof);
      field.oneofIndex = oneofs.indexOf(oneof);
    }
    fields.push(field);
  }
  // protoc puts the synthetic oneof of each proto3 `optional` field after the real ones.
  for (const { field, oneof } of synthetic) {
    field.proto3Optional = true;
    field.oneofIndex = oneofs.length;
    oneofs.push(oneof);
  }
  for (const inner of Object.keys(table.messages)) {
    if (inner.startsWith(`${name}.`) && !inner.slice(name.length + 1).includes('.')) nested.push(message(inner, table));
  }
  return { name: short, field: fields, nestedType: nested, oneofDecl: oneofs.map((n) => ({ name: n })) };
}

/** The table as a file in a registry that also knows the well-known types it refers to. */
export function registryOf(table: ProtoTable): FileRegistry {
  const proto = create(FileDescriptorProtoSchema, {
    name: table.file,
    package: table.package,
    dependency: [...table.imports],
    syntax: 'proto3',
    messageType: Object.keys(table.messages)
      .filter((n) => !n.includes('.'))
      .map((n) => message(n, table)),
    enumType: Object.entries(table.enums ?? {}).map(([name, values]) => ({
      name,
      value: values.map((v) => {
        const [valueName = '', number = '0'] = v.split(' ');
        return { name: valueName, number: Number(number) };
      }),
    })),
    service: Object.entries(table.services ?? {}).map(([name, methods]) => ({
      name,
      method: methods.map((m) => {
        const [methodName = '', input = '', ...rest] = m.split(' ');
        const output = rest.at(-1) ?? '';
        const qualify = (t: string): string => (t.startsWith('.') ? t : `.${table.package}.${t}`);
        return { name: methodName, inputType: qualify(input), outputType: qualify(output), serverStreaming: rest[0] === 'stream' };
      }),
    })),
  });
  return createFileRegistry(proto, (name) => WELL_KNOWN.find((f) => `${f.name}.proto` === name));
}
