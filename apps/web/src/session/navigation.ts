/**
 * Navigation from outside React components (the API client, the session store). The router
 * registers its `navigate` at start-up; before that a full page load is the fallback.
 */
export interface NavigateOptions {
  replace?: boolean;
}

type Navigator = (to: string, options?: NavigateOptions) => void;

let navigator: Navigator | null = null;

export function setNavigator(next: Navigator | null): void {
  navigator = next;
}

export function navigate(to: string, options: NavigateOptions = {}): void {
  if (navigator) {
    navigator(to, options);
    return;
  }
  if (typeof window === 'undefined') return;
  if (options.replace) window.location.replace(to);
  else window.location.assign(to);
}
