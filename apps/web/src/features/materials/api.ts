import { useCallQuery } from '../../api/queries';
import { buildFolderTree } from './types';

// Every read of the library is in the 'materials' domain: each of its mutations refreshes them all (the usage bar of /my too).

/** The folder tree (the server answers it flat, parents first). */
export function useFolderTree() {
  return useCallQuery('materialFolderTree', {}, { select: buildFolderTree });
}

export function useCategories() {
  return useCallQuery('materialCategoryList', {});
}
