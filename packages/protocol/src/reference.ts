import type { z } from 'zod';
import type { EndpointDef } from './endpoints/common.js';
import { ENDPOINT_LIST } from './endpoints.js';
import { ErrorCode, type ErrorCodeValue } from './errors.js';
import { type JsonSchema, toJsonSchema } from './jsonSchema.js';

/**
 * The generated endpoint reference (docs/endpoints.md): one section per catalogue entry with
 * its path, authentication, permission, request and answer fields (types, optionality,
 * defaults, bounds) and the codes it can answer. `npm run docs:protocol` writes every file of
 * REFERENCE_DOCS; packages/protocol/test/reference.test.ts fails when one is stale. Another
 * protocol (the device protocol) joins by adding an entry to REFERENCE_DOCS with its own
 * catalogue and pipeline codes. Not exported from the package index: tooling only.
 */

interface FieldRow {
  path: string;
  type: string;
  presence: string;
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

function bounds(lo: number | undefined, hi: number | undefined, unit: string): string {
  const min = lo !== undefined && lo > 0 ? lo : undefined;
  const max = hi !== undefined && hi < MAX_SAFE ? hi : undefined;
  if (min !== undefined && max !== undefined) return min === max ? ` (${min}${unit})` : ` (${min}-${max}${unit})`;
  if (min !== undefined) return ` (>= ${min}${unit})`;
  if (max !== undefined) return ` (<= ${max}${unit})`;
  return '';
}

const literal = (value: unknown) => (typeof value === 'string' ? `'${value}'` : JSON.stringify(value));

/** A one-line type of a schema node; `refs` names the recursive definitions. */
function typeOf(schema: JsonSchema, refs: Map<string, string>): string {
  if (schema.$ref) return refs.get(schema.$ref) ?? 'object';
  const options = schema.anyOf ?? schema.oneOf;
  const variants = options ? unionOfObjects(schema) : null;
  const tag = variants ? discriminator(variants) : null;
  if (variants && tag) {
    const values = variants.map((v) => literal(v.properties?.[tag]?.const)).join(' \\| ');
    return `object, one shape per \`${tag}\` (${values})`;
  }
  if (options) return options.map((s) => typeOf(s, refs)).join(' \\| ');
  if (schema.const !== undefined) return literal(schema.const);
  if (schema.enum) return schema.enum.map(literal).join(' \\| ');
  const type = Array.isArray(schema.type) ? schema.type.join(' \\| ') : schema.type;
  switch (type) {
    case 'string': {
      const format = schema.format ? ` ${schema.format}` : '';
      const pattern = schema.pattern && !schema.format ? ` matching \`${schema.pattern}\`` : '';
      return `string${format}${bounds(schema.minLength, schema.maxLength, ' chars')}${pattern}`;
    }
    case 'integer':
    case 'number': {
      const lo = schema.minimum !== undefined && schema.minimum > -MAX_SAFE ? schema.minimum : undefined;
      return `${type}${bounds(lo === 0 ? undefined : lo, schema.maximum, '')}${lo === 0 ? ' (>= 0)' : ''}`;
    }
    case 'array':
      return `array of ${schema.items ? typeOf(schema.items, refs) : 'any'}${bounds(schema.minItems, schema.maxItems, ' items')}`;
    case 'object':
      if (!schema.properties && schema.additionalProperties && typeof schema.additionalProperties === 'object')
        return `map of string to ${typeOf(schema.additionalProperties, refs)}`;
      return 'object';
    case undefined:
      return 'any';
    default:
      return type;
  }
}

/** The object node of a schema (through an array's items), whose fields are listed below it. */
function objectOf(schema: JsonSchema): JsonSchema | null {
  if (schema.type === 'object' && schema.properties) return schema;
  if (schema.type === 'array' && schema.items) return objectOf(schema.items);
  const options = (schema.anyOf ?? schema.oneOf)?.filter((s) => s.type !== 'null');
  if (options?.length === 1) return objectOf(options[0]);
  return null;
}

function rows(schema: JsonSchema, refs: Map<string, string>, prefix: string, out: FieldRow[]): void {
  const object = objectOf(schema);
  if (!object?.properties) return;
  const required = new Set(object.required ?? []);
  for (const [name, child] of Object.entries(object.properties)) {
    const path = `${prefix}${name}`;
    const presence =
      child.default !== undefined
        ? `optional, default ${literal(child.default)}`
        : required.has(name)
          ? 'required'
          : 'optional';
    out.push({ path, type: typeOf(child, refs), presence });
    if (!child.$ref) rows(child, refs, `${path}${child.type === 'array' ? '[].' : '.'}`, out);
  }
}

/** The field table of a request or answer schema, or a one-line description when it has no fields. */
export function schemaTable(schema: z.ZodType, io: 'input' | 'output', heading: string): string {
  const json = toJsonSchema(schema, io);
  const refs = new Map<string, string>();
  for (const [name, def] of Object.entries(json.$defs ?? {})) {
    const fields = Object.keys(def.properties ?? {}).join(', ');
    refs.set(`#/$defs/${name}`, `node { ${fields} } (recursive)`);
  }
  // The fields of each recursive node, once, below the table that names it.
  const nodes = Object.entries(json.$defs ?? {}).map(([name, def]) => {
    const fields: FieldRow[] = [];
    rows(def, refs, '', fields);
    return ['', '', `Each ${refs.get(`#/$defs/${name}`)}:`, '', ...fieldTable(fields)].join('\n');
  });
  const out: FieldRow[] = [];
  rows(json, refs, '', out);
  const variants = unionOfObjects(json);
  if (out.length === 0 && variants) {
    // A union of objects (a command's kinds): each option's fields, named by the field whose
    // constant tells them apart.
    const tag = discriminator(variants);
    const sections = variants.map((option, i) => {
      const fields: FieldRow[] = [];
      rows(option, refs, '', fields);
      const value = tag ? literal(option.properties?.[tag]?.const) : `${i + 1}`;
      const name = tag ? `\`${tag}\` = ${value}` : `option ${value}`;
      return ['', '', `${name}:`, '', ...fieldTable(fields)].join('\n');
    });
    const by = tag ? ` (by \`${tag}\`)` : '';
    return `${heading}: one of ${variants.length} shapes${by}${sections.join('')}${nodes.join('')}`;
  }
  if (out.length === 0) {
    const noFields = json.type === 'object' && Object.keys(json.properties ?? {}).length === 0;
    const whole = noFields && !json.additionalProperties ? 'no fields (`{}`)' : `\`${typeOf(json, refs)}\``;
    return `${heading}: ${whole}${nodes.join('')}`;
  }
  const strict = json.additionalProperties === false ? '' : ' (unknown fields are dropped)';
  const root = objectOf(json) === json ? '' : ` — ${typeOf(json, refs)} of:`;
  return [`${heading}${root}${io === 'input' ? strict : ''}`, '', ...fieldTable(out)].join('\n') + nodes.join('');
}

/** The options of a union whose every option is an object with fields, or null. */
function unionOfObjects(schema: JsonSchema): JsonSchema[] | null {
  const options = schema.anyOf ?? schema.oneOf;
  if (!options || options.length < 2) return null;
  const objects = options.map((o) => objectOf(o));
  return objects.every((o): o is JsonSchema => o !== null) ? objects : null;
}

/** The field every option has with a different constant (a discriminated union's tag), or null. */
function discriminator(options: JsonSchema[]): string | null {
  const first = options[0].properties ?? {};
  for (const name of Object.keys(first)) {
    const values = options.map((o) => o.properties?.[name]?.const);
    if (values.every((v) => v !== undefined) && new Set(values.map((v) => JSON.stringify(v))).size === values.length)
      return name;
  }
  return null;
}

/** Rows of a markdown table; a '|' in a type (an enum, a pattern) is escaped once. */
function fieldTable(fields: FieldRow[]): string[] {
  const cell = (text: string) => text.replaceAll('\\|', '|').replaceAll('|', '\\|');
  return [
    '| field | type | presence |',
    '|---|---|---|',
    ...fields.map((r) => `| \`${r.path}\` | ${cell(r.type)} | ${r.presence} |`),
  ];
}

/** What a protocol's reference needs besides its catalogue. */
export interface ReferenceSpec {
  /** The file, relative to the repository root. */
  file: string;
  title: string;
  /** Markdown after the title: what the file is, where the rules are. */
  intro: string;
  endpoints: readonly EndpointDef[];
  /** How a call reaches the endpoint (the console: `POST <path>`; a device protocol: its topic). */
  transport(def: EndpointDef): string;
  /** The codes any call of `def` can answer before and around its handler (the pipeline's). */
  pipelineCodes(def: EndpointDef): readonly ErrorCodeValue[];
  /** The name of a code. */
  codeName(code: number): string;
}

const CODE_NAMES = new Map<number, string>(Object.entries(ErrorCode).map(([name, code]) => [code, name]));

/** The console pipeline (apps/server/src/protocol/pipeline.ts), as docs/protocol.md states it. */
function consolePipelineCodes(def: EndpointDef): ErrorCodeValue[] {
  const codes: ErrorCodeValue[] = [
    ErrorCode.BAD_ENVELOPE,
    ErrorCode.BAD_SIGNATURE,
    ErrorCode.STALE_TIMESTAMP,
    // A mutation's sequence is its idempotency key (docs/protocol.md "Retries"), a read's the replay guard's.
    def.mutation && !def.download ? ErrorCode.SEQUENCE_REUSED : ErrorCode.REPLAYED_SEQUENCE,
    ErrorCode.INVALID_PARAMS,
  ];
  if (def.auth === 'session') {
    codes.push(ErrorCode.TOKEN_INVALID, ErrorCode.SESSION_ENDED);
    if (!def.allowDuringPasswordChange) codes.push(ErrorCode.PASSWORD_CHANGE_REQUIRED);
    if (def.permission || def.notForMonitor) codes.push(ErrorCode.NO_PERMISSION);
  }
  if (def.scope?.kind === 'detail') codes.push(ErrorCode.NOT_FOUND);
  return codes;
}

function endpointSection(def: EndpointDef, spec: ReferenceSpec): string {
  const facts = [
    spec.transport(def),
    def.auth === 'public' ? 'public (no token)' : 'session',
    def.permission ? `permission \`${def.permission}\`` : def.auth === 'session' ? 'any signed-in account' : null,
    def.mutation ? 'mutation (one transaction, one operation-log entry)' : null,
    def.download ? 'download (answers the file)' : null,
    def.allowDuringPasswordChange ? 'allowed while the password must change' : null,
    def.notForMonitor ? 'not for third-party monitors' : null,
    def.scope ? `reads \`${def.scope.object}\` (${def.scope.audience ?? 'scoped'} audience)` : null,
  ].filter(Boolean);
  const pipeline = spec.pipelineCodes(def);
  const own = (def.errors ?? []).filter((code) => !pipeline.includes(code));
  const name = (code: number) => `${spec.codeName(code)} (${code})`;
  return [
    `### ${def.name}`,
    '',
    facts.join(' · '),
    '',
    schemaTable(def.request, 'input', 'Request'),
    '',
    def.download
      ? 'Answer: the file (`Content-Disposition: attachment`), or the JSON envelope with an error code.'
      : schemaTable(def.response, 'output', 'Answer (`payload`)'),
    '',
    `Codes: ${own.length ? `${own.map(name).join(', ')}; ` : ''}from the pipeline ${pipeline.map((c) => spec.codeName(c)).join(', ')}.`,
  ].join('\n');
}

/** The whole generated file of one protocol. */
export function renderReference(spec: ReferenceSpec): string {
  const byDomain = new Map<string, EndpointDef[]>();
  for (const def of spec.endpoints) {
    const domain = def.name.split('.')[0];
    byDomain.set(domain, [...(byDomain.get(domain) ?? []), def]);
  }
  const index = [...byDomain].map(
    ([domain, defs]) =>
      `- **${domain}**: ${defs.map((d) => `[${d.name}](#${d.name.replace(/\./g, '').toLowerCase()})`).join(', ')}`,
  );
  return [
    `# ${spec.title}`,
    '',
    '<!-- Generated from the catalogue by `npm run docs:protocol` (packages/protocol/src/reference.ts). Do not edit by hand: a test fails when this file is stale. -->',
    '',
    spec.intro.trim(),
    '',
    `${spec.endpoints.length} endpoints.`,
    '',
    ...index,
    '',
    ...[...byDomain].flatMap(([domain, defs]) => [
      `## ${domain}`,
      '',
      ...defs.flatMap((d) => [endpointSection(d, spec), '']),
    ]),
  ]
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/\n*$/, '\n');
}

/** Every generated reference: the console's today, the device protocol's when it comes. */
export const REFERENCE_DOCS: readonly ReferenceSpec[] = [
  {
    file: 'docs/endpoints.md',
    title: 'Console endpoint reference',
    intro: `Every call of the console protocol, from the endpoint catalogue (\`packages/protocol/src/endpoints/\`).
The envelope, signature, checks and codes are in [protocol.md](protocol.md). Field types are the
request schema as a client sends it and the answer as the server guarantees it; strings are
trimmed by the client and may hold no NUL and no lone surrogate (INVALID_PARAMS naming the
field). "Codes" lists what the handler declares (\`errors\` in the catalogue) and then what
the pipeline can answer for that endpoint.`,
    endpoints: ENDPOINT_LIST,
    transport: (def) => `\`POST ${def.path}\``,
    pipelineCodes: consolePipelineCodes,
    codeName: (code) => CODE_NAMES.get(code) ?? String(code),
  },
];
