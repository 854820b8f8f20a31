/** Reloads the page (a module of its own so tests can replace it). */
export function reloadPage(): void {
  window.location.reload();
}

/** Spec sections 4 and 9: a department switch reloads the page after 500 ms. */
export const DEPT_SWITCH_RELOAD_MS = 500;
