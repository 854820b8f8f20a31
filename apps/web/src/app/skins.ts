import type { ThemeConfig } from 'antd';
import { theme } from 'antd';

/**
 * Skins (spec sections 1 and 9, guide convention 10): skin n is a function of a few tokens.
 * It sets the body class `theme-<n>`, CSS variables for the shell's own styles, and the antd
 * theme (the dark algorithm for skin 4). Default skin is 1.
 */
export type Skin = 1 | 2 | 3 | 4;

export const SKINS: readonly Skin[] = [1, 2, 3, 4];
export const DEFAULT_SKIN: Skin = 1;

export interface SkinTokens {
  /** i18n key (namespace `pages`) of the skin's name. */
  name: string;
  primary: string;
  /** Page background behind the content cards. */
  background: string;
  /** Cards, tables, header. */
  container: string;
  /** Side navigation bar. */
  menuBackground: string;
  menuText: string;
  dark: boolean;
}

export const SKIN_TOKENS: Readonly<Record<Skin, SkinTokens>> = {
  1: {
    name: 'skin.light',
    primary: '#1677ff',
    background: '#f5f7fa',
    container: '#ffffff',
    menuBackground: '#ffffff',
    menuText: '#1f2329',
    dark: false,
  },
  2: {
    name: 'skin.red',
    primary: '#d9363e',
    background: '#fbf4f4',
    container: '#ffffff',
    menuBackground: '#a8071a',
    menuText: '#ffffff',
    dark: false,
  },
  3: {
    name: 'skin.blue',
    primary: '#1d4ed8',
    background: '#eef3fc',
    container: '#ffffff',
    menuBackground: '#102a83',
    menuText: '#ffffff',
    dark: false,
  },
  4: {
    name: 'skin.dark',
    primary: '#3c89e8',
    background: '#101114',
    container: '#1c1d21',
    menuBackground: '#08090b',
    menuText: 'rgba(255, 255, 255, 0.85)',
    dark: true,
  },
};

export function isSkin(value: unknown): value is Skin {
  return typeof value === 'number' && (SKINS as readonly number[]).includes(value);
}

/** Coerces a stored value to a skin; anything unknown is the default skin. */
export function toSkin(value: unknown): Skin {
  const n = typeof value === 'string' ? Number(value) : value;
  return isSkin(n) ? n : DEFAULT_SKIN;
}

/** The antd theme of a skin. */
export function skinTheme(skin: Skin): ThemeConfig {
  const t = SKIN_TOKENS[skin];
  return {
    algorithm: t.dark ? theme.darkAlgorithm : theme.defaultAlgorithm,
    token: {
      colorPrimary: t.primary,
      colorInfo: t.primary,
      colorLink: t.primary,
      colorBgLayout: t.background,
      colorBgContainer: t.container,
      borderRadius: 6,
    },
    components: {
      Layout: { bodyBg: t.background, headerBg: t.container, siderBg: t.menuBackground },
      Menu: t.dark
        ? { darkItemBg: t.menuBackground, darkSubMenuItemBg: t.menuBackground }
        : { itemBg: t.menuBackground },
    },
  };
}

/** The body class of a skin. */
export function skinClass(skin: Skin): string {
  return `theme-${skin}`;
}

/** CSS variables of a skin, for styles outside antd (side bar, header, banners). */
export function skinCssVariables(skin: Skin): Record<string, string> {
  const t = SKIN_TOKENS[skin];
  return {
    '--mq-primary': t.primary,
    '--mq-bg': t.background,
    '--mq-container': t.container,
    '--mq-menu-bg': t.menuBackground,
    '--mq-menu-text': t.menuText,
  };
}

/** Puts `theme-<n>` on document.body (removing other skins' classes) and sets the CSS variables. */
export function applySkinToBody(skin: Skin, body: HTMLElement | undefined = globalThis.document?.body): void {
  if (!body) return;
  for (const s of SKINS) body.classList.remove(skinClass(s));
  body.classList.add(skinClass(skin));
  for (const [name, value] of Object.entries(skinCssVariables(skin))) body.style.setProperty(name, value);
  body.style.colorScheme = SKIN_TOKENS[skin].dark ? 'dark' : 'light';
}
