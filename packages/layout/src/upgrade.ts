/**
 * Reading stored documents: a document written by an older version of the schema is upgraded
 * step by step to the current `v` before it is validated. Version 1 is the first: no steps yet.
 */

import { layoutDocumentSchema } from './rules.js';
import { LAYOUT_DOCUMENT_VERSION } from './schema.js';

type Upgrade = (doc: Record<string, unknown>) => Record<string, unknown>;
/** UPGRADES[n] turns a version-n document into version n+1. */
const UPGRADES: Record<number, Upgrade> = {};

/** Brings a stored document to the current version (without validating it). */
export function upgradeLayoutDocument(input: unknown): unknown {
  if (!input || typeof input !== 'object') return input;
  let doc = input as Record<string, unknown>;
  let v = typeof doc.v === 'number' ? doc.v : LAYOUT_DOCUMENT_VERSION;
  while (v < LAYOUT_DOCUMENT_VERSION && UPGRADES[v]) {
    doc = UPGRADES[v](doc);
    v += 1;
  }
  return doc;
}

/** Upgrades then validates (shape and rules): the server's read and write path. */
export function parseLayoutDocument(input: unknown) {
  return layoutDocumentSchema.safeParse(upgradeLayoutDocument(input));
}
