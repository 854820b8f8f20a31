import type { TFunction } from 'i18next';

/** "operationLog" -> "Operation log": a readable fallback for a code with no translation. */
export function readableCode(code: string): string {
  const words = code
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_.-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words[0].toUpperCase() + words.slice(1) : code;
}

/** Module and action codes of the log, translated in the `operationLog` namespace. */
export function moduleLabel(t: TFunction, code: string): string {
  return t(`module.${code}`, { ns: 'operationLog', defaultValue: readableCode(code) });
}

export function actionLabel(t: TFunction, code: string): string {
  return t(`action.${code}`, { ns: 'operationLog', defaultValue: readableCode(code) });
}
