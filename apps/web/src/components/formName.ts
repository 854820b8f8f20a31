import { useId } from 'react';

/**
 * A name for an antd Form that is unique on the page: antd prefixes every field's id with
 * the form's name (`<name>_<field>`), so two forms with a `loginName` field (a filter bar and
 * the add dialog over it) give their labels different targets (axe duplicate-id rules).
 */
export function useFormName(kind: string): string {
  return `${kind}${useId().replace(/[^A-Za-z0-9]/g, '')}`;
}
