import type { ScopeSubject } from '../../auth/scope.js';
import type { Executor } from '../../db/client.js';

/** A reference to a shared object. */
export interface RefKey {
  refType: string;
  refId: string;
}

/**
 * What the sharing calls need from the module that owns a ref-type. The module registers it
 * once (at import); permission.allocation and permission.refresh answer NOT_FOUND for a
 * ref-type nobody registered, exactly as for an id that does not exist.
 */
export interface ShareableType {
  refType: string;
  /**
   * The objects among `ids` the caller can see (tenant, data scope and sharing applied), id to
   * name: the operation log names what was shared.
   */
  visibleIds(db: Executor, caller: ScopeSubject, ids: readonly string[]): Promise<ReadonlyMap<string, string>>;
  /** The ids among `ids` the caller may share (manageWhere of auth/scope.ts). */
  manageableIds(db: Executor, caller: ScopeSubject, ids: readonly string[]): Promise<Set<string>>;
  /** The containers whose allocations the object inherits (a material's folder); none by default. */
  containersOf?(db: Executor, entId: string, id: string): Promise<RefKey[]>;
}

const registry = new Map<string, ShareableType>();

/** Registers the ref-type of a module's objects (once per ref-type). */
export function registerShareable(type: ShareableType): void {
  const known = registry.get(type.refType);
  if (known && known !== type) throw new Error(`ref-type ${type.refType} is registered twice`);
  registry.set(type.refType, type);
}

export function shareableType(refType: string): ShareableType | undefined {
  return registry.get(refType);
}
