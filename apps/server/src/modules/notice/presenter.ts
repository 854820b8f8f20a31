import type { Notice } from '@marquee/protocol';
import { NOTICE_TYPE_SYSTEM } from '../../db/schema/index.js';
import type { NoticeRow } from './repository.js';

export function toNotice(row: NoticeRow): Notice {
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    content: row.content,
    createdAt: row.createdAt.toISOString(),
    monitorStatus: row.type === NOTICE_TYPE_SYSTEM ? row.monitorStatus : null,
  };
}
