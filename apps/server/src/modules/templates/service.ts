import { RefType } from '@marquee/protocol';
import type { CallContext } from '../../protocol/handlers.js';
import { registerStat } from '../home/stats.js';
import { registerShareable } from '../sharing/registry.js';
import { toTemplateRow } from './presenter.js';
import {
  countSharedTemplates,
  countVisibleTemplates,
  listTemplates,
  manageableTemplateIds,
  visibleTemplateIds,
} from './repository.js';

registerShareable({
  refType: RefType.template,
  visibleIds: visibleTemplateIds,
  manageableIds: manageableTemplateIds,
});

// Home page figures (issue 8): the templates the caller's list shows, and those shared with it.
registerStat({ key: 'templates', count: (db, caller) => countVisibleTemplates(db, caller) });
registerStat({ key: 'sharedWithMe', count: (db, caller) => countSharedTemplates(db, caller) });

/** Spec section 7 'Template page list': size, page, name -> payload.data (data-scoped, sharing-aware). */
export async function templatePage(input: { page: number; size: number; name?: string }, ctx: CallContext) {
  const { total, rows } = await listTemplates(ctx.db, ctx.user, input);
  return { total, data: rows.map(toTemplateRow) };
}
