import { z } from 'zod';

/**
 * The poster template document (issue 11, /poster/editor): a fixed-size composition drawn on
 * a canvas (react-konva) and exported to PNG or JPEG at exactly the template's size. Nodes are
 * text, images, shapes (rectangle, ellipse, line) and QR codes, each with a box (x, y, w, h in
 * template pixels, rotation in degrees about the box's top-left corner, as Konva rotates), a
 * z-order and a style. A node with a `field` is one staff fill in: its text (text), its
 * content (QR) or its picture (image) comes from the field's value when a poster is made.
 * The same schema validates the editor's save on the web and on the server.
 */

/** A poster's width and height, px: a canvas export beyond 8192 px fails in common browsers. */
export const POSTER_MIN_SIZE = 48;
export const POSTER_MAX_SIZE = 8192;
/** Nodes per template. */
export const POSTER_MAX_NODES = 500;
/** Fields per template. */
export const POSTER_MAX_FIELDS = 50;
/** A text node's text, a QR code's content, a field value. */
export const POSTER_TEXT_MAX = 2000;
/** The generated image's size limit (bytes). */
export const POSTER_IMAGE_MAX_BYTES = 30 * 1024 * 1024;

export const POSTER_NODE_TYPES = ['text', 'image', 'rect', 'ellipse', 'line', 'qr'] as const;
export type PosterNodeType = (typeof POSTER_NODE_TYPES)[number];

/** The node types a field can be put on (what staff can fill). */
export const POSTER_FIELD_TYPES: readonly PosterNodeType[] = ['text', 'image', 'qr'];

const color = z
  .string()
  .trim()
  .regex(/^(#[0-9a-fA-F]{3,8}|transparent|rgba?\([0-9.,\s%]+\))$/, 'validation.posterColor');
const coord = z
  .number()
  .finite()
  .min(-POSTER_MAX_SIZE)
  .max(POSTER_MAX_SIZE * 2);
const extent = z
  .number()
  .finite()
  .min(0)
  .max(POSTER_MAX_SIZE * 2);

/** An image source: an http(s) URL or a path of this server (a signed /files/ URL). */
export const posterImageSrcSchema = z
  .string()
  .trim()
  .max(2000)
  .refine((s) => s === '' || /^https?:\/\//i.test(s) || s.startsWith('/'), 'validation.invalid');

export const posterStyleSchema = z
  .object({
    fill: color.optional(),
    stroke: color.optional(),
    strokeWidth: z.number().min(0).max(500).optional(),
    cornerRadius: z.number().min(0).max(POSTER_MAX_SIZE).optional(),
    opacity: z.number().min(0).max(1).optional(),
    fontSize: z.number().min(4).max(2000).optional(),
    fontFamily: z.string().trim().max(100).optional(),
    fontStyle: z.enum(['normal', 'bold', 'italic', 'bold italic']).optional(),
    align: z.enum(['left', 'center', 'right']).optional(),
    lineHeight: z.number().min(0.5).max(5).optional(),
    /** Image: how the picture fills its box. */
    fit: z.enum(['cover', 'contain', 'fill']).optional(),
    /** QR code: the light colour behind the dark modules. */
    background: color.optional(),
  })
  .strict();
export type PosterStyle = z.infer<typeof posterStyleSchema>;

/** The field key: what the fill form and a poster's field values are keyed by. */
export const posterFieldKeySchema = z
  .string()
  .trim()
  .min(1, 'validation.required')
  .max(40)
  .regex(/^[A-Za-z0-9_-]+$/, 'validation.posterFieldKey');

export const posterFieldSchema = z
  .object({
    key: posterFieldKeySchema,
    /** What the fill form shows. */
    label: z.string().trim().min(1, 'validation.required').max(40),
  })
  .strict();
export type PosterField = z.infer<typeof posterFieldSchema>;

export const posterNodeSchema = z
  .object({
    id: z.string().min(1).max(40),
    type: z.enum(POSTER_NODE_TYPES),
    name: z.string().trim().max(60).default(''),
    x: coord,
    y: coord,
    w: extent,
    h: extent,
    rotation: z.number().finite().min(-360).max(360).default(0),
    /** Drawing order, bottom first; the editor keeps them 0..n-1 in the nodes' order. */
    z: z.number().int().min(0).max(POSTER_MAX_NODES),
    locked: z.boolean().default(false),
    hidden: z.boolean().default(false),
    style: posterStyleSchema.default({}),
    /** Text: the text; QR: the encoded content. */
    text: z.string().max(POSTER_TEXT_MAX).optional(),
    /** Image: a material of the library (when known) and the URL it is drawn from. */
    materialId: z.string().max(64).nullable().optional(),
    src: posterImageSrcSchema.optional(),
    /** Marks the node as an editable field. */
    field: posterFieldSchema.nullable().default(null),
  })
  .strict()
  .superRefine((node, ctx) => {
    if (node.field && !POSTER_FIELD_TYPES.includes(node.type)) {
      ctx.addIssue({ code: 'custom', path: ['field'], message: 'validation.posterFieldType' });
    }
  });
export type PosterNode = z.output<typeof posterNodeSchema>;
export type PosterNodeInput = z.input<typeof posterNodeSchema>;

export const posterDocumentSchema = z
  .object({
    v: z.literal(1),
    background: color.default('#ffffff'),
    nodes: z.array(posterNodeSchema).max(POSTER_MAX_NODES),
  })
  .strict()
  .superRefine((doc, ctx) => {
    const ids = new Set<string>();
    const keys = new Set<string>();
    doc.nodes.forEach((node, i) => {
      if (ids.has(node.id)) ctx.addIssue({ code: 'custom', path: ['nodes', i, 'id'], message: 'validation.invalid' });
      ids.add(node.id);
      if (node.field) {
        if (keys.has(node.field.key)) {
          ctx.addIssue({
            code: 'custom',
            path: ['nodes', i, 'field', 'key'],
            message: 'validation.posterDuplicateField',
          });
        }
        keys.add(node.field.key);
      }
    });
    if (keys.size > POSTER_MAX_FIELDS) {
      ctx.addIssue({ code: 'custom', path: ['nodes'], message: 'validation.invalid' });
    }
  });
export type PosterDocument = z.output<typeof posterDocumentSchema>;

export const posterSizeSchema = z.number().int().min(POSTER_MIN_SIZE).max(POSTER_MAX_SIZE);
export const posterNameSchema = z.string().trim().min(1, 'validation.required').max(50);

/** Field values of a poster: field key -> text, QR content or image URL. */
export const posterFieldValuesSchema = z
  .record(posterFieldKeySchema, z.string().max(POSTER_TEXT_MAX))
  .refine((v) => Object.keys(v).length <= POSTER_MAX_FIELDS, 'validation.invalid');
export type PosterFieldValues = z.infer<typeof posterFieldValuesSchema>;

/** The fields of a document, in drawing order. */
export function posterFields(
  doc: Pick<PosterDocument, 'nodes'>,
): { nodeId: string; type: PosterNodeType; field: PosterField; value: string }[] {
  return [...doc.nodes]
    .sort((a, b) => a.z - b.z)
    .filter((n) => n.field)
    .map((n) => ({
      nodeId: n.id,
      type: n.type,
      field: n.field as PosterField,
      value: n.type === 'image' ? (n.src ?? '') : (n.text ?? ''),
    }));
}

/** The document with the field values filled in (values of unknown keys are ignored). */
export function fillPoster<D extends Pick<PosterDocument, 'nodes'>>(doc: D, values: PosterFieldValues): D {
  return {
    ...doc,
    nodes: doc.nodes.map((n) => {
      if (!n.field || !(n.field.key in values)) return n;
      const value = values[n.field.key];
      return n.type === 'image' ? { ...n, src: value, materialId: null } : { ...n, text: value };
    }),
  };
}

/** A blank document. */
export function emptyPosterDocument(): PosterDocument {
  return { v: 1, background: '#ffffff', nodes: [] };
}

/** The image formats a poster exports to. */
export const POSTER_FORMATS = ['png', 'jpeg'] as const;
export type PosterFormat = (typeof POSTER_FORMATS)[number];
export const POSTER_FORMAT_TYPES: Record<PosterFormat, string> = { png: 'image/png', jpeg: 'image/jpeg' };
