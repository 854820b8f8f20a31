import {
  FALLBACK_LOCALE,
  hasPermission,
  isLocale,
  LOCALES,
  type Locale,
  type LoginResponse,
  type MenuItem,
  type UserInfo,
} from '@marquee/protocol';
import { create } from 'zustand';
import { currentLocale } from '../i18n';
import { storePassword } from './credentials';
import { navigate } from './navigation';
import { applySkinToBody, DEFAULT_SKIN, type Skin, toSkin } from './skinTokens';

/** localStorage key of the saved session (spec section 3: saved on unload, restored on load). */
export const SESSION_STORAGE_KEY = 'mq_session';
/** localStorage key of the browser's device id (query field `uuid` of every call). */
export const DEVICE_ID_KEY = 'mq_device_id';

/** Session state of spec section 3 (names as the spec spells them, `remeberPWD` included). */
export interface SessionState {
  token: string;
  id: string;
  /** The enterprise the session acts in (its own, or one it acts for after 'change enterprise'). */
  entId: string;
  entName: string;
  /** The account's own enterprise. */
  homeEntId: string;
  userId: string;
  userName: string;
  loginName: string;
  /**
   * Always empty: a remembered password lives in the browser's password manager, never in
   * this state or localStorage (see session/credentials.ts).
   */
  password: string;
  remeberPWD: boolean;
  deptId: string;
  deptName: string;
  welcomeSpeech: string;
  logo: string;
  openWxLogin: 'Y' | 'N';
  permissionList: string[];
  navMenuList: MenuItem[];
  skin: Skin;
  locale: Locale;
  locales: Locale[];
  thirdMonitorUser: boolean;
  /** Upload signature of the storage (spec section 3 "upload signature fields"), when fetched. */
  signData: Record<string, string> | null;
  /** The server asks for a password change (forced-change notice after login). */
  updatePwd: boolean;
  /** The user belongs to the platform provider (fixed welcome text). */
  isYXF: boolean;
  /** An add-device flow is waiting for the device list to open its dialog. */
  addDevice: boolean;
  /** True when there is no token; evaluated after each navigation. */
  loginout: boolean;
  /** The side menu is collapsed. */
  showCollapse: boolean;
}

export interface SessionActions {
  /** Stores a successful login; `remember` hands the password to the browser's password manager. */
  setLogin(res: LoginResponse, remember?: { password: string; remember: boolean }): void;
  /** Refreshes the user fields (after auth.info, a department or an enterprise change). */
  setUserInfo(info: UserInfo): void;
  setSkin(skin: number): void;
  /** Ends the session (spec section 4): auth.logout, clear, close all tabs, loginout, /login. */
  logout(): Promise<void>;
  /** The user holds the permission code (spec section 6 rules; no code needs nothing). */
  can(code?: string | null): boolean;
  /** Re-evaluates `loginout` from the token (called after each navigation). */
  syncLoginout(): void;
  /** Writes the state to localStorage now (also done on `beforeunload`). */
  save(): void;
}

export type Session = SessionState & SessionActions;

/*
 * The session is the lowest layer of the web (app -> shell -> features -> components -> api
 * -> session): it imports none of the layers above. Those hook into logout instead: the API
 * client says how to end the session on the server, and the tab store and the query cache
 * drop what belonged to the user once the local session is cleared.
 */
let endServerSession: (() => Promise<unknown>) | null = null;
const loggedOutListeners = new Set<() => void>();

/** The API client's `auth.logout` call (registered by api/client.ts). */
export function setServerLogout(end: () => Promise<unknown>): void {
  endServerSession = end;
}

/** Runs `listener` after each logout has cleared the local session; returns the unsubscribe. */
export function onLoggedOut(listener: () => void): () => void {
  loggedOutListeners.add(listener);
  return () => loggedOutListeners.delete(listener);
}

const loggedOutUser = {
  token: '',
  id: '',
  entId: '',
  entName: '',
  homeEntId: '',
  userId: '',
  userName: '',
  deptId: '',
  deptName: '',
  welcomeSpeech: '',
  logo: '',
  permissionList: [] as string[],
  navMenuList: [] as MenuItem[],
  thirdMonitorUser: false,
  signData: null,
  updatePwd: false,
  isYXF: false,
  addDevice: false,
} satisfies Partial<SessionState>;

export function initialSessionState(): SessionState {
  return {
    ...loggedOutUser,
    loginName: '',
    password: '',
    remeberPWD: false,
    openWxLogin: 'N',
    skin: DEFAULT_SKIN,
    locale: FALLBACK_LOCALE,
    locales: [...LOCALES],
    loginout: true,
    showCollapse: false,
  };
}

const STATE_KEYS = Object.keys(initialSessionState()) as (keyof SessionState)[];

function pickState(state: SessionState): SessionState {
  const out = {} as Record<string, unknown>;
  for (const key of STATE_KEYS) out[key] = state[key];
  return out as unknown as SessionState;
}

/** Reads a saved session, keeping only fields of the right type over the defaults. */
export function restoreSessionState(raw: string | null, locale: Locale): SessionState {
  const base = initialSessionState();
  base.locale = locale;
  if (!raw) return base;
  let saved: Record<string, unknown>;
  try {
    saved = JSON.parse(raw);
  } catch {
    return base;
  }
  if (!saved || typeof saved !== 'object') return base;
  const out = base as unknown as Record<string, unknown>;
  for (const key of STATE_KEYS) {
    const value = saved[key];
    const def = out[key];
    if (value === undefined || key === 'password' || key === 'locale' || key === 'locales' || key === 'loginout')
      continue;
    if (key === 'skin') out.skin = toSkin(value);
    else if (key === 'openWxLogin') out.openWxLogin = value === 'Y' ? 'Y' : 'N';
    else if (key === 'signData') out.signData = value && typeof value === 'object' ? value : null;
    else if (Array.isArray(def)) out[key] = Array.isArray(value) ? value : def;
    else if (typeof value === typeof def) out[key] = value;
  }
  base.loginout = !base.token;
  return base;
}

function storage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

function randomUuid(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  // crypto.randomUUID needs a secure context; plain-http LAN deployments build a v4 UUID by hand.
  const bytes = new Uint8Array(16);
  c.getRandomValues(bytes);
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

let memoryDeviceId: string | undefined;

/** The browser's device id: a random UUID generated once and kept in localStorage. */
export function deviceId(): string {
  const store = storage();
  const existing = store?.getItem(DEVICE_ID_KEY) ?? memoryDeviceId;
  if (existing) return existing;
  const id = randomUuid();
  memoryDeviceId = id;
  store?.setItem(DEVICE_ID_KEY, id);
  return id;
}

/** A random id (sequence numbers, trace keys). */
export { randomUuid };

let logoutInFlight: Promise<void> | null = null;

export const useSession = create<Session>()((set, get) => ({
  ...restoreSessionState(storage()?.getItem(SESSION_STORAGE_KEY) ?? null, currentLocale()),

  setLogin(res, remember) {
    const remeberPWD = remember ? remember.remember : get().remeberPWD;
    set({
      token: res.token,
      id: res.id,
      entId: res.entId,
      entName: res.entName,
      homeEntId: res.homeEntId,
      userId: res.userId,
      userName: res.userName,
      loginName: res.loginName,
      password: '',
      remeberPWD,
      deptId: res.deptId,
      deptName: res.deptName,
      welcomeSpeech: res.welcomeSpeech,
      logo: res.logo,
      openWxLogin: res.openWxLogin,
      permissionList: [...res.permissionList],
      navMenuList: res.folderMenuList,
      thirdMonitorUser: res.thirdMonitorUser,
      updatePwd: res.updatePwd,
      isYXF: res.isYXF,
      loginout: false,
    });
    if (remember?.remember) void storePassword(res.loginName, remember.password);
    get().save();
  },

  setUserInfo(info) {
    set({
      id: info.id,
      entId: info.entId,
      entName: info.entName,
      homeEntId: info.homeEntId,
      userId: info.userId,
      userName: info.userName,
      loginName: info.loginName,
      deptId: info.deptId,
      deptName: info.deptName,
      welcomeSpeech: info.welcomeSpeech,
      logo: info.logo,
      openWxLogin: info.openWxLogin,
      permissionList: [...info.permissionList],
      navMenuList: info.folderMenuList,
      thirdMonitorUser: info.thirdMonitorUser,
      updatePwd: info.updatePwd,
      isYXF: info.isYXF,
    });
    get().save();
  },

  setSkin(skin) {
    const next = toSkin(skin);
    set({ skin: next });
    applySkinToBody(next);
    get().save();
  },

  logout() {
    if (logoutInFlight) return logoutInFlight;
    logoutInFlight = (async () => {
      try {
        if (get().token) await endServerSession?.();
      } catch {
        // A failed logout call only ends the in-progress state (spec section 8); the local
        // session is cleared anyway so the user is never stuck logged in on this browser.
      }
      const { remeberPWD, loginName } = get();
      set({ ...loggedOutUser, password: '', loginName: remeberPWD ? loginName : '', loginout: true });
      for (const listener of [...loggedOutListeners]) {
        try {
          listener();
        } catch {
          // A listener whose part is not mounted (the tab bar on the login page) has nothing to drop.
        }
      }
      get().save();
      navigate('/login', { replace: true });
    })().finally(() => {
      logoutInFlight = null;
    });
    return logoutInFlight;
  },

  can(code) {
    return hasPermission(get().permissionList, code);
  },

  syncLoginout() {
    const loginout = !get().token;
    if (get().loginout !== loginout) set({ loginout });
  },

  save() {
    const state = pickState(get());
    state.password = '';
    try {
      storage()?.setItem(SESSION_STORAGE_KEY, JSON.stringify(state));
    } catch {
      // Storage full or disabled (private mode): the session just lives for this page.
    }
  },
}));

/** The locale in the session follows the cookie (the cookie is the source of truth). */
export function sessionLocale(): Locale {
  const { locale } = useSession.getState();
  return isLocale(locale) ? locale : FALLBACK_LOCALE;
}

if (typeof window !== 'undefined') {
  // Spec section 3: the whole state is saved to local storage on page unload.
  window.addEventListener('beforeunload', () => useSession.getState().save());
  window.addEventListener('pagehide', () => useSession.getState().save());
  // A skin chosen in another tab of this browser (the session is shared through local storage)
  // applies here at once, without a reload.
  window.addEventListener('storage', (event) => followSkinOf(event));
}

/** Applies the skin another tab saved, when `event` is a change of the saved session. */
export function followSkinOf(event: Pick<StorageEvent, 'key' | 'newValue'>): void {
  if (event.key !== SESSION_STORAGE_KEY || !event.newValue) return;
  let saved: unknown;
  try {
    saved = JSON.parse(event.newValue);
  } catch {
    return;
  }
  if (!saved || typeof saved !== 'object' || !('skin' in saved)) return;
  const skin = toSkin(saved.skin);
  if (skin === useSession.getState().skin) return;
  useSession.setState({ skin });
  applySkinToBody(skin);
}
