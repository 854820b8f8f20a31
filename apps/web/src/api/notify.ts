/**
 * The error toast the API client shows. The App registers antd's `message.error` from
 * `App.useApp()` (so toasts follow the theme and locale); until then errors go to the console.
 */
type Toast = (message: string) => void;

let toast: Toast | null = null;

export function setErrorToast(next: Toast | null): void {
  toast = next;
}

export function showErrorToast(message: string): void {
  if (toast) toast(message);
  else console.error(message);
}
