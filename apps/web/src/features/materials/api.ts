import type { Endpoints, Req } from '@marquee/protocol';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client';
import { buildFolderTree } from './types';

/** Query keys of the library: every mutation refreshes `all` (the usage bar of /my too). */
export const MATERIAL_KEYS = {
  all: ['materials'] as const,
  folders: ['materials', 'folders'] as const,
  categories: ['materials', 'categories'] as const,
  list: (request: object) => ['materials', 'list', request] as const,
  usage: ['materials', 'usage'] as const,
};

export type MaterialListRequest = Req<Endpoints['materialList']>;

/** The folder tree (the server answers it flat, parents first). */
export function useFolderTree() {
  return useQuery({
    queryKey: MATERIAL_KEYS.folders,
    queryFn: async () => buildFolderTree(await call('materialFolderTree', {})),
  });
}

export function useCategories() {
  return useQuery({ queryKey: MATERIAL_KEYS.categories, queryFn: () => call('materialCategoryList', {}) });
}
