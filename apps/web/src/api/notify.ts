/**
 * The error toast the API client shows. The antd root registers antd's `message.error` from
 * `App.useApp()` (so toasts follow the skin and locale). On pages without antd (the login
 * page) a small plain toast stands in.
 */
type Toast = (message: string) => void;

let toast: Toast | null = null;

export function setErrorToast(next: Toast | null): void {
  toast = next;
}

const PLAIN_TOAST_MS = 3000;

function plainToast(message: string): void {
  if (typeof document === 'undefined') {
    console.error(message);
    return;
  }
  let host = document.getElementById('mq-plain-toasts');
  if (!host) {
    host = document.createElement('div');
    host.id = 'mq-plain-toasts';
    host.className = 'mq-plain-toasts';
    host.setAttribute('aria-live', 'assertive');
    document.body.appendChild(host);
  }
  const item = document.createElement('div');
  item.className = 'mq-plain-toast';
  item.setAttribute('role', 'alert');
  item.textContent = message;
  host.appendChild(item);
  setTimeout(() => item.remove(), PLAIN_TOAST_MS);
}

export function showErrorToast(message: string): void {
  if (toast) toast(message);
  else plainToast(message);
}
