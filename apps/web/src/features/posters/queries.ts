/** Query keys of the poster feature. */
export const posterKeys = {
  all: ['poster'] as const,
  page: (q: object) => ['poster', 'page', q] as const,
  info: (id: string) => ['poster', 'info', id] as const,
  history: (q: object) => ['poster', 'history', q] as const,
};
