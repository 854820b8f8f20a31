import { type OperationLogWordKind, operationLogWord } from '@marquee/protocol';

/**
 * A module, action or target code of the log in the reader's language: the protocol's
 * OPERATION_LOG_WORDS, the same words the log's Excel export writes (issue 25: no internal
 * code reaches a reader).
 */
export function logWord(kind: OperationLogWordKind, code: string, language: string): string {
  return operationLogWord(kind, code, language);
}

export const moduleLabel = (language: string, code: string) => logWord('module', code, language);
export const actionLabel = (language: string, code: string) => logWord('action', code, language);
export const targetLabel = (language: string, code: string) => logWord('target', code, language);
