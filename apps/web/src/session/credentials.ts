/**
 * Remember-password (spec section 2 Login, section 3 session state `password`/`remeberPWD`).
 *
 * Decision: the console never writes a password to localStorage or a cookie, in clear or
 * "obfuscated" — anything a script can read back is as open as clear text. When the user
 * ticks "remember password" the password goes to the browser's own password manager
 * through the Credential Management API (`navigator.credentials.store(new PasswordCredential)`),
 * which keeps it exactly as protected as any password the browser saves, and the login page
 * asks it back with `navigator.credentials.get({ password: true })`. Browsers without that
 * API (Firefox, Safari) only get the account name remembered; their own password manager
 * still offers to save the password because the form uses `autocomplete="current-password"`.
 * The session's `password` field therefore stays empty.
 */
interface PasswordCredentialInit {
  id: string;
  password: string;
  name?: string;
}

interface PasswordCredentialLike extends Credential {
  readonly password?: string;
}

type PasswordCredentialCtor = new (init: PasswordCredentialInit) => Credential;

function passwordCredentialCtor(): PasswordCredentialCtor | undefined {
  if (typeof window === 'undefined') return undefined;
  const ctor = (window as unknown as { PasswordCredential?: PasswordCredentialCtor }).PasswordCredential;
  return typeof ctor === 'function' && typeof navigator !== 'undefined' && navigator.credentials ? ctor : undefined;
}

/** The browser can store and return passwords (Chromium-based browsers, secure context). */
export function canStorePasswords(): boolean {
  return passwordCredentialCtor() !== undefined;
}

/** Hands the credentials to the browser's password manager. Never throws. */
export async function storePassword(loginName: string, password: string): Promise<boolean> {
  const Ctor = passwordCredentialCtor();
  if (!Ctor || !loginName || !password) return false;
  try {
    await navigator.credentials.store(new Ctor({ id: loginName, password, name: loginName }));
    return true;
  } catch {
    return false;
  }
}

/** Asks the browser for a saved password of the console (the browser may show its account chooser). */
export async function recallPassword(): Promise<{ loginName: string; password: string } | null> {
  if (!passwordCredentialCtor()) return null;
  try {
    const credential = (await navigator.credentials.get({
      password: true,
      mediation: 'optional',
    } as CredentialRequestOptions)) as PasswordCredentialLike | null;
    if (!credential?.password) return null;
    return { loginName: credential.id, password: credential.password };
  } catch {
    return null;
  }
}
