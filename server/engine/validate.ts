import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import sanitizeHtml from 'sanitize-html';
import { type EntitySchema, VALIDATION_KEYWORDS } from '../../common/engine/types.js';
import { validationMessage } from '../http/validation.js';

/**
 * Record validation built from a schema file: only the standard JSON Schema keywords of each writable property
 * (the x- extensions are not validation), messages in Chinese naming the field by its title (http/validation.ts).
 */

/** The hidden optimistic-lock column (docs/schemas.md x-version). */
export const VERSION = 'version';
export const VERSION_TITLE = '版本号';

const STANDARD_KEYS = [...VALIDATION_KEYWORDS, 'default', 'items'] as const;

export type RecordMode = 'create' | 'update' | 'patch' | 'seed';

/** An ajv instance for records: all errors (import reports every field), coercion (form values, CSV cells), defaults. */
export function createRecordAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, verbose: true, coerceTypes: true, useDefaults: true, strict: true, allowUnionTypes: true });
  ajv.addFormat('email', /^[^\s@]+@[^\s@]+\.[^\s@]+$/);
  ajv.addFormat('uri', /^[a-z][a-z0-9+.-]*:\/\/\S+$/i);
  // A link people click (banner, friend link): http(s) only, so no javascript: or data: URL gets stored; '' = none.
  ajv.addFormat('url', /^(https?:\/\/[^\s<>"]+)?$/i);
  ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
  ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/);
  ajv.addFormat('mobile', /^1[3-9]\d{9}$/);
  return ajv;
}

/** The JSON Schema a record body is validated with, for one kind of write. */
export function recordJsonSchema(schema: EntitySchema, mode: RecordMode): Record<string, unknown> {
  const pkName = schema['x-primaryKey'];
  const versioned = schema['x-version'] !== false;
  const properties: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(schema.properties)) {
    if (prop.readOnly) continue;
    const out: Record<string, unknown> = {};
    for (const key of STANDARD_KEYS) if (prop[key] !== undefined) out[key] = structuredClone(prop[key]);
    // Defaults fill a new record only; an update leaves absent fields as they are.
    if (mode === 'update' || mode === 'patch') delete out.default;
    properties[name] = out;
  }
  let required = (schema.required ?? []).filter((r) => properties[r]);
  if (mode === 'update' || mode === 'patch') {
    properties[pkName] = { type: 'integer', title: schema.properties[pkName]?.title ?? pkName, minimum: 1 };
    if (versioned) properties[VERSION] = { type: 'integer', title: VERSION_TITLE, minimum: 0 };
    const keys = [pkName, ...(versioned ? [VERSION] : [])];
    required = mode === 'patch' ? keys : [...keys, ...required];
  }
  return { type: 'object', title: schema.title, properties, required };
}

export interface FieldError {
  /** The property (camelCase). */
  property: string;
  /** The property's title (the column header of exports and imports). */
  field: string;
  message: string;
}

/** Every ajv error of a record as {property, field title, Chinese message}; one per property. */
export function fieldErrors(schema: EntitySchema, errors: ErrorObject[] | null | undefined): FieldError[] {
  const out: FieldError[] = [];
  for (const e of errors ?? []) {
    const property =
      e.keyword === 'required' ? String((e.params as { missingProperty: string }).missingProperty) : (e.instancePath.split('/')[1] ?? '').replace(/~1/g, '/');
    if (out.some((f) => f.property === property)) continue;
    // A nullable field's type error names its real type (整数), not the union ("integer,null").
    const params = e.params as { type?: unknown };
    if (e.keyword === 'type' && typeof params.type === 'string') params.type = params.type.split(',').find((t) => t !== 'null') ?? params.type;
    const title = property === VERSION ? VERSION_TITLE : (schema.properties[property]?.title ?? property);
    const message =
      e.keyword === 'format' && (e.params as { format?: string }).format === 'url'
        ? `${title}必须是以 http:// 或 https:// 开头的链接`
        : validationMessage([e as unknown as FastifySchemaValidationError]);
    out.push({ property, field: title, message });
  }
  return out;
}

export interface RecordValidators {
  create: ValidateFunction;
  update: ValidateFunction;
  patch: ValidateFunction;
}

export function compileValidators(schema: EntitySchema): RecordValidators {
  const ajv = createRecordAjv();
  return {
    create: ajv.compile(recordJsonSchema(schema, 'create')),
    update: ajv.compile(recordJsonSchema(schema, 'update')),
    patch: ajv.compile(recordJsonSchema(schema, 'patch')),
  };
}

/**
 * Rich text (x-ui.widget richText) is stored only after this allow-list: formatting, lists, tables, links and images
 * over http(s) (images may also be data: URIs); no scripts, event handlers, iframes or javascript: links.
 */
export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [
      ...sanitizeHtml.defaults.allowedTags,
      'img',
      'span',
      'u',
      's',
      'del',
      'ins',
      'sub',
      'sup',
      'font',
      'h1',
      'h2',
      'h3',
      'h4',
      'h5',
      'h6',
      'colgroup',
      'col',
    ],
    allowedAttributes: {
      a: ['href', 'name', 'target', 'rel', 'title'],
      img: ['src', 'alt', 'title', 'width', 'height'],
      font: ['color', 'size', 'face'],
      td: ['colspan', 'rowspan'],
      th: ['colspan', 'rowspan'],
      col: ['span', 'width'],
      '*': ['style', 'class'],
    },
    allowedStyles: {
      '*': {
        color: [/^#[0-9a-f]{3,8}$/i, /^rgba?\([\d\s.,%]+\)$/i, /^[a-z]+$/i],
        'background-color': [/^#[0-9a-f]{3,8}$/i, /^rgba?\([\d\s.,%]+\)$/i, /^[a-z]+$/i],
        'text-align': [/^(left|right|center|justify)$/],
        'font-size': [/^\d+(\.\d+)?(px|em|rem|pt|%)$/],
        'font-weight': [/^(bold|normal|\d{3})$/],
        'text-decoration': [/^(underline|line-through|none)$/],
        'line-height': [/^[\d.]+(px|em|%)?$/],
        'padding-left': [/^\d+(px|em)$/],
        width: [/^\d+(px|%)$/],
        height: [/^\d+(px|%)$/],
      },
    },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: ['http', 'https', 'data'] },
    allowProtocolRelative: false,
    transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer' }) },
  });
}
