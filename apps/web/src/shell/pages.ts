import type { RouteDef } from '@marquee/protocol';
import type { PageLoader, PageModule } from '../components/routeHandle';
import { loadRemainingNamespaces, PAGE_NAMESPACES } from '../i18n';

/**
 * The page modules inside the shell: every `features/<feature>/<Name>Page.tsx` but the plain
 * ones (app/pages.ts). A route names its page in the protocol's route table (`page`), the one
 * registration of a page; a feature that comes online writes its page module and names it there.
 *
 * These `import()`s are written in the shell's chunk (it loads through `shellEntry.ts`) on
 * purpose: the bundler then sees that the shell is loaded whenever one of these pages is, and
 * keeps the antd code the shell already has (popups, modal, form context, skeleton, ...) in the
 * shell's chunks. Written in the entry chunk, they let it cut that code into one small chunk
 * per combination of pages sharing it, which the home route then loaded on top of the shell.
 * The cost: on the first load of the shell, a page's chunk is asked for once the shell's has run.
 */
export const SHELL_PAGE_MODULES: Readonly<Record<string, PageLoader>> = import.meta.glob<PageModule>([
  '../features/*/*Page.tsx',
  '!../features/auth/*',
  '!../features/errors/*',
  '!../features/common/*',
]);

const notOnline: PageLoader = () => import('../features/common/NotOnlinePage');

/** The module's loader of a route's `page` in a glob's map, with its feature's own texts (PAGE_NAMESPACES). */
export function pageModule(
  modules: Readonly<Record<string, PageLoader>>,
  page: string | undefined,
): PageLoader | undefined {
  const load = page ? modules[`../features/${page}.tsx`] : undefined;
  const feature = page?.split('/')[0] ?? '';
  if (!load || !(feature in PAGE_NAMESPACES)) return load;
  return async () => {
    const [module] = await Promise.all([load(), loadRemainingNamespaces([feature])]);
    return module;
  };
}

/** The page loader of a route inside the shell; the "feature not online" page for the others. */
export function shellPageLoader(route: RouteDef): PageLoader {
  return pageModule(SHELL_PAGE_MODULES, route.page) ?? notOnline;
}
