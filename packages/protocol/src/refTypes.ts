/**
 * Ref-types: the kinds of objects that can be shared (data allocation, spec sections 4 and 7).
 * The permission calls take a `refType` and one or more `refId`s; an allocation row stores the
 * pair. The values are stable strings: they are stored in the database and sent by clients,
 * so never renumber one. Templates are '9' as the spec says; the spec's "layout" and
 * "template" are the same object (the template page lists layouts).
 *
 * | ref-type | object                | container (allocations inherited from) |
 * |----------|-----------------------|----------------------------------------|
 * | '1'      | device                | device group ('2')                     |
 * | '2'      | device group          | –                                      |
 * | '3'      | material              | material folder ('4')                  |
 * | '4'      | material folder       | –                                      |
 * | '5'      | ad                    | –                                      |
 * | '6'      | poster template       | –                                      |
 * | '9'      | template (layout)     | –                                      |
 *
 * An object shared with a container is shared with everything in it: the allocation shows on
 * the contained object as inherited (locked in the permission dialog).
 */
export const RefType = {
  device: '1',
  deviceGroup: '2',
  material: '3',
  materialFolder: '4',
  ad: '5',
  poster: '6',
  template: '9',
} as const;

export type RefTypeValue = (typeof RefType)[keyof typeof RefType];

export const REF_TYPES: readonly RefTypeValue[] = Object.values(RefType);

/** The container ref-type whose allocations an object of a ref-type inherits. */
export const REF_TYPE_CONTAINER: Readonly<Partial<Record<RefTypeValue, RefTypeValue>>> = {
  [RefType.device]: RefType.deviceGroup,
  [RefType.material]: RefType.materialFolder,
};

export function isRefType(value: unknown): value is RefTypeValue {
  return typeof value === 'string' && (REF_TYPES as readonly string[]).includes(value);
}

/** Allocation target (spec: allocate-type): 1 a department, 2 an account. */
export const AllocateType = { department: 1, account: 2 } as const;
export type AllocateTypeValue = (typeof AllocateType)[keyof typeof AllocateType];

/** Department data type (spec: allocate-dept-data-type): 1 the department and its sub-departments, 2 that department alone. */
export const DeptDataType = { withChildren: 1, only: 2 } as const;
export type DeptDataTypeValue = (typeof DeptDataType)[keyof typeof DeptDataType];
