import type { Readable } from 'node:stream';
import type { EndpointDef } from '@marquee/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import type { Executor } from '../db/client.js';
import type { OperationResult } from '../db/schema/index.js';
import type { AppServices } from '../services.js';

/** One operation-log row, written by ctx.audit in the mutation's transaction. */
export interface AuditEntry {
  /** Domain of the change: 'auth', 'notice', 'dept'... */
  module: string;
  action: string;
  /** What kind of object the mutation changed ('account', 'role', 'ref:9'...). */
  targetType: string;
  /** The object's id; absent when the mutation changed several (their ids go in detail). */
  targetId?: string;
  /**
   * The object as a person reads it (a login name, a role's or department's name, several
   * names joined by joinTargetNames), kept in the entry so it survives a rename or delete.
   */
  targetName: string;
  detail?: Record<string, unknown>;
  result?: OperationResult;
  /** Who acted, for public endpoints (login) where there is no principal yet. */
  actor?: { entId: string; accountId: string; loginName: string };
}

/** The most characters of a target name kept in the log. */
export const TARGET_NAME_MAX = 200;

/** Names several targets in one entry: "a, b, c" and, past the limit, "a, b (+3)". */
export function joinTargetNames(names: readonly string[]): string {
  let text = '';
  for (let i = 0; i < names.length; i++) {
    const rest = names.length - i - 1;
    const next = text ? `${text}, ${names[i]}` : names[i];
    if (next.length + (rest ? ` (+${rest})`.length : 0) > TARGET_NAME_MAX) {
      return text ? `${text} (+${names.length - i})` : `${names[i].slice(0, TARGET_NAME_MAX - 8)}… (+${rest})`;
    }
    text = next;
  }
  return text;
}

/** What a handler gets besides its validated input. */
export interface CallContext {
  readonly endpoint: EndpointDef;
  /** The transaction of a mutation, else the root database. */
  readonly db: Executor;
  /** The caller of a session endpoint; null on public endpoints. */
  readonly principal: Principal | null;
  /** The caller; throws on public endpoints, where there is none. */
  readonly user: Principal;
  readonly language: string;
  readonly ip: string;
  readonly traceKey: string;
  /** The browser's stored device id (query field `uuid`). */
  readonly deviceUuid: string;
  readonly userAgent: string | undefined;
  /** The call's time (one clock reading per call). */
  readonly now: Date;
  readonly log: FastifyBaseLogger;
  readonly services: AppServices;
  /** Writes the operation-log row of this mutation (exactly once per successful mutation). */
  audit(entry: AuditEntry): Promise<void>;
  /** Runs after the transaction commits (cache invalidation); never on rollback. */
  afterCommit(fn: () => void): void;
}

/** The answer of a download endpoint: the file, sent with the server's file name. */
export interface FileAnswer {
  fileName: string;
  contentType: string;
  data: Buffer | string | Readable;
}

type Input<E> = E extends EndpointDef<infer R, z.ZodType> ? z.output<R> : never;
type Output<E> = E extends EndpointDef<z.ZodType, infer R> ? z.input<R> : never;

export interface Handler<E extends EndpointDef = EndpointDef, P = unknown> {
  def: E;
  /**
   * Optional work before a mutation's transaction, on the root database: slow checks
   * (password hashing) must not hold the transaction, which on PGlite blocks every query.
   */
  prepare?: (input: Input<E>, ctx: CallContext) => Promise<P>;
  handle: (input: Input<E>, ctx: CallContext, prepared: P) => Promise<Output<E> | FileAnswer>;
}

/** Binds a catalogue entry to its implementation, with the entry's types. */
export function defineHandler<E extends EndpointDef, P = undefined>(def: E, impl: Omit<Handler<E, P>, 'def'>): Handler {
  return { def, ...impl } as unknown as Handler;
}

export function isFileAnswer(value: unknown): value is FileAnswer {
  if (!value || typeof value !== 'object') return false;
  const v = value as Partial<FileAnswer>;
  return typeof v.fileName === 'string' && v.fileName.length > 0 && typeof v.contentType === 'string' && v.data != null;
}
