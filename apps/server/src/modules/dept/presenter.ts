/** A department as a header option (spec: value, label). */
export function toDeptOption(row: { id: string; name: string }): { value: string; label: string } {
  return { value: row.id, label: row.name };
}
