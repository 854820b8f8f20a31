/**
 * The shell's lazy chunk, as the router loads it: the main layout, and the loaders of the
 * pages shown inside it (see `./pages.ts` for why they load through here).
 */
export { default } from './MainLayout';
export { shellPageLoader } from './pages';
